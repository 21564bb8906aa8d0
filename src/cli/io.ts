// Process-facing helpers of the CLI: standard input, writing the report, the tool's version.
import { constants } from "node:fs";
import { access, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { isSystemError, writeFileAtomic } from "../terraform/edit/fs-atomic.js";
import { readStateStream } from "../terraform/state/read-stream.js";
import { CliError } from "./errors.js";

export { toolVersion } from "./version.js";

/** Standard input, read for `--state -` (stops early when it clearly is not a state: terraform/state/read-stream.ts). */
export async function readStdin(): Promise<Buffer> {
  return readStateStream(process.stdin as AsyncIterable<Buffer>);
}

/**
 * Writes a report file atomically (temp file + rename), so a reader never sees half a report; replacing a
 * Terraform configuration or state file (a mistyped --output) keeps a `.backup` copy of it first.
 */
export async function writeReportFile(file: string, content: string | Iterable<string>): Promise<void> {
  const abs = path.resolve(file);
  try {
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFileAtomic(abs, content, { backup: /\.(tf|tf\.json|tfstate|tfstate\.backup)$/.test(abs) });
  } catch (e) {
    throw writeFailure(e, file);
  }
}

/**
 * A report that the system would not let us write (a full disk, a read-only file system, no permission) is
 * the user's to fix: one line naming where, exit 2, not an internal error with a stack trace.
 */
function writeFailure(e: unknown, where: string): unknown {
  return isSystemError(e) ? new CliError(`cannot write the report to ${where}: ${(e as Error).message}`) : e;
}

/**
 * Refuses, before anything is written, a report file that cannot be written: a directory, a path under a
 * file, a directory that is not writable, or a file another output of the run writes (`taken`: absolute
 * paths). Creates nothing; `label` is the option as given, for the message (`--output report.json`).
 */
export async function checkReportFile(file: string, label: string, taken: ReadonlySet<string> = new Set()): Promise<void> {
  const abs = path.resolve(file);
  if (taken.has(abs)) throw new CliError(`${label}: --out-dir writes that file too; write the report elsewhere. Nothing was written`);
  const isDirectory = await stat(abs).then((s) => s.isDirectory(), () => false);
  if (isDirectory) throw new CliError(`${label}: is a directory, not a file. Nothing was written`);
  await checkWritableDirectory(path.dirname(abs), label);
}

/**
 * Refuses, before anything is written, an output directory that cannot be made or written in: the path (or
 * the nearest of its parents that exists) is a file, or not writable. Creates nothing.
 */
export async function checkWritableDirectory(dir: string, label: string): Promise<void> {
  for (let d = path.resolve(dir); ; ) {
    const s = await stat(d).catch(() => null);
    if (s) {
      if (!s.isDirectory()) throw new CliError(`${label}: ${d} is not a directory. Nothing was written`);
      const writable = await access(d, constants.W_OK).then(() => true, () => false);
      if (!writable) throw new CliError(`${label}: ${d} is not writable. Nothing was written`);
      return;
    }
    const up = path.dirname(d);
    if (up === d) return;
    d = up;
  }
}

/** The report's `root`: the base directory relative to the working directory, with forward slashes. */
export function relativeRoot(base: string, cwd: string = process.cwd()): string {
  const rel = path.relative(cwd, base).split(path.sep).join("/");
  return rel === "" ? "." : rel;
}
