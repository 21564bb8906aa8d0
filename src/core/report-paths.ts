// The one path convention of every report but JSON (text, Markdown, PLAN.md, SARIF, JUnit, certs, the input
// errors on stderr): a file is named relative to the working directory, with forward slashes and no leading
// `./`, as `file`, `file:line` or `file:line:column`; a file outside it is reached with `../` (an absolute
// `file` stays absolute). The JSON report keeps `root` (relative to the working directory) and `file`
// (relative to `root`), so a location is `root` joined with `file`: these functions do that join. Pure
// string arithmetic, no file system.
import path from "node:path";
import type { InputError, Report } from "./model.js";

/** `root` joined with `file`, normalized, forward slashes, no leading `./`; absolute files stay absolute. */
export function joinRoot(root: string | undefined, file: string): string {
  const f = toSlashes(file);
  if (isAbsolute(f)) return path.posix.normalize(f);
  const r = toSlashes(root ?? ".");
  const joined = path.posix.normalize(path.posix.join(r === "" ? "." : r, f));
  return joined.replace(/^(\.\/)+/, "") || ".";
}

/** The working-directory-relative path of a finding's or resource's file. */
export function reportPath(report: Pick<Report, "root">, file: string): string {
  return joinRoot(report.root, file);
}

/**
 * The working-directory-relative path of an input error's file, or null when it names no file
 * (`<stdin>`). Errors from configuration files are relative to `root`, like findings; a `--state` file is
 * named as the user typed it, relative to the working directory. A path that already starts with `root/`
 * is taken as one of those and not joined a second time.
 */
export function errorPath(report: Pick<Report, "root">, e: InputError): string | null {
  const f = toSlashes(e.file);
  if (f === "" || /^<.*>$/.test(f)) return null;
  const root = toSlashes(report.root ?? ".").replace(/\/+$/, "");
  if (root !== "." && root !== "" && !isAbsolute(f) && (f === root || f.startsWith(root + "/") || f.startsWith("./" + root + "/"))) {
    return joinRoot(".", f);
  }
  return joinRoot(report.root, f);
}

/** `file:line` (`file:line:column` when the column is known), or the file alone when no line is known. */
export function withLine(file: string, line: number | null | undefined, column?: number | null): string {
  if (!line || line < 1) return file;
  return column && column >= 1 ? `${file}:${line}:${column}` : `${file}:${line}`;
}

/**
 * A path as a SARIF `artifactLocation.uri`: a relative reference with each segment percent-encoded
 * (spaces, `#`, `?`, `%`, `:`, non-ASCII), or a `file://` URI for an absolute path.
 */
export function pathToUri(p: string): string {
  const f = toSlashes(p);
  const enc = (s: string) =>
    s
      .split("/")
      .map((seg) => (/^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
      .join("/");
  if (/^[A-Za-z]:\//.test(f)) return `file:///${enc(f)}`;
  if (f.startsWith("/")) return `file://${enc(f)}`;
  return enc(f);
}

function toSlashes(p: string): string {
  return p.replace(/\\/g, "/");
}

function isAbsolute(p: string): boolean {
  return p.startsWith("/") || /^[A-Za-z]:\//.test(p);
}
