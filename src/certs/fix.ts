// `certs --fix --to CA`: the edits that switch `certificate_authority` where that is safe, applied in memory
// with the surgical editor and written as one patch (never to the .tf files themselves). An existing patch
// file is never overwritten without `force`; edits the editor refuses are listed, not written.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { planCertificateFixes, type CaTarget, type CertFixEdit, type CertFixOptions } from "../core/cert-fix.js";
import { onlyAdmittedMajor } from "../core/provider-version.js";
import { shellQuote } from "../core/shell-quote.js";
import { unifiedDiff } from "../core/unified-diff.js";
import type { CertFixEntry, CertFixSummary } from "../render/certs-text.js";
import { AttributeEditError, setAttribute } from "../terraform/edit/set-attribute.js";
import { FileExistsError, writeNewFile } from "../terraform/edit/fs-atomic.js";
import type { ConfigTree } from "../terraform/config/modules.js";
import { collectProviderInfo } from "../terraform/versions/providers.js";
import { UserInputError } from "../core/user-input-error.js";
import type { LocatedCertificate } from "./audit.js";
import { compareText } from "../core/text-order.js";

/** The patch could not be written (it exists and `force` was not given, or the write failed). */
export class PatchWriteError extends UserInputError {}


export interface CertificateFixOptions {
  cwd: string;
  /** The patch file, relative to cwd or absolute. */
  patchFile: string;
  force: boolean;
  asOf: string;
}

export interface CertificateFixResult {
  summary: CertFixSummary;
  /** The patch text, or null when nothing was patched (then no file is written). */
  patch: string | null;
}

/**
 * Plans the edits, applies them to the files in memory with the surgical editor, and writes one patch
 * (paths relative to the patch's directory when it holds every edited file, else to the scanned base).
 */
export async function buildCertificateFix(
  configuration: { base: string; tree: ConfigTree },
  certs: LocatedCertificate[],
  target: CaTarget,
  opts: CertificateFixOptions,
): Promise<CertificateFixResult> {
  const edits = mergeSameBlock(await planEdits(configuration, certs, target));
  const patchAbs = path.resolve(opts.cwd, opts.patchFile);
  const entries: CertFixEntry[] = [];
  const diffs: { abs: string; oldText: string; newText: string }[] = [];

  const byFile = new Map<string, CertFixEdit[]>();
  for (const e of edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  for (const [file, fileEdits] of byFile) {
    const abs = path.resolve(configuration.base, file);
    let bytes: Uint8Array;
    try {
      bytes = await readFile(abs);
    } catch (e) {
      for (const edit of fileEdits) entries.push(entry(edit, "refused", `cannot read ${file}: ${(e as Error).message}`));
      continue;
    }
    // Bottom-up, so that a deleted line never moves a block still to be edited.
    let text: string | Uint8Array = bytes;
    let original: string | null = null;
    for (const edit of [...fileEdits].sort((a, b) => b.line - a.line)) {
      if (edit.refusal !== undefined) {
        entries.push(entry(edit, "refused", edit.refusal));
        continue;
      }
      if (!edit.valid) {
        entries.push(entry(edit, "skipped", "not accepted by the provider version in use (see the note)"));
        continue;
      }
      const parts = edit.address.split(".");
      const name = parts[parts.length - 1]!;
      const type = parts[parts.length - 2]!;
      try {
        const r = await setAttribute(text, { block: { type: "resource", labels: [type, name] }, line: edit.line, path: edit.path, from: edit.from, to: edit.to }, { file });
        if (original === null) original = typeof text === "string" ? text : new TextDecoder("utf-8", { ignoreBOM: true }).decode(text);
        const changed = r.changes.some((c) => c.changed);
        entries.push(entry(edit, changed ? "patched" : "unchanged", changed ? null : `already ${JSON.stringify(edit.to)}`));
        text = r.text;
      } catch (e) {
        if (!(e instanceof AttributeEditError)) throw e;
        entries.push(entry(edit, "refused", e.message));
      }
    }
    if (original !== null && typeof text === "string" && text !== original) diffs.push({ abs, oldText: original, newText: text });
  }
  entries.sort((a, b) => compareText(a.file, b.file) || a.line - b.line);

  if (diffs.length === 0) return { summary: { target, patchFile: null, applyCommand: null, edits: entries }, patch: null };

  const patchDir = path.dirname(patchAbs);
  const under = (dir: string, f: string) => {
    const rel = path.relative(dir, f);
    return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  };
  const root = diffs.every((d) => under(patchDir, d.abs)) ? patchDir : configuration.base;
  const patchShown = shown(opts.cwd, patchAbs);
  const applyCommand =
    root === opts.cwd
      ? `git apply ${shellWord(patchShown)}`
      : `cd ${shellWord(shown(opts.cwd, root))} && git apply ${shellWord(toSlashes(path.relative(root, patchAbs)))}`;

  const patch =
    preamble(entries, target, opts.asOf, applyCommand) +
    diffs
      .sort((a, b) => compareText(a.abs, b.abs))
      .map((d) => unifiedDiff(d.oldText, d.newText, toSlashes(path.relative(root, d.abs))))
      .join("");
  try {
    await writeNewFile(patchAbs, patch, { force: opts.force });
  } catch (e) {
    if (e instanceof FileExistsError) {
      throw new PatchWriteError(`${patchShown} already exists; pass --force to overwrite it, or --patch-file FILE to write elsewhere`);
    }
    throw new PatchWriteError(`cannot write ${patchShown}: ${(e as Error).message}`);
  }
  return { summary: { target, patchFile: patchShown, applyCommand, edits: entries }, patch };
}

/**
 * One edit per block: a module directory called more than once gives one edit per module call for the
 * same lines; the first keeps the others' API commands and names them in its note.
 */
function mergeSameBlock(edits: CertFixEdit[]): CertFixEdit[] {
  const byBlock = new Map<string, CertFixEdit>();
  const out: CertFixEdit[] = [];
  for (const e of edits) {
    const key = `${e.file}\u0000${e.line}\u0000${e.attribute}`;
    const first = byBlock.get(key);
    if (!first) {
      const copy = { ...e, commands: [...e.commands] };
      byBlock.set(key, copy);
      out.push(copy);
      continue;
    }
    for (const c of e.commands) if (!first.commands.includes(c)) first.commands.push(c);
    first.valid &&= e.valid;
    // One instance of the block refused (its CA an expression): the block is not edited.
    if (e.refusal !== undefined && first.refusal === undefined) first.refusal = e.refusal;
    // The same module called from two roots gives the same address twice: nothing to add then.
    if (e.address !== first.address && !first.note.includes(` ${e.address}.`)) first.note += ` The same block also serves ${e.address}.`;
  }
  return out;
}

function entry(e: CertFixEdit, status: CertFixEntry["status"], reason: string | null): CertFixEntry {
  return {
    address: e.address,
    file: e.file,
    line: e.line,
    attribute: e.attribute,
    kind: e.kind,
    from: e.from,
    to: e.to,
    forcesReplacement: e.forcesReplacement,
    status,
    note: e.note,
    reason,
    commands: e.commands,
  };
}

/** Comment lines before the first diff: git apply and patch skip them, a reviewer reads them. */
function preamble(entries: CertFixEntry[], target: CaTarget, asOf: string, applyCommand: string): string {
  const lines = [`# cf-waf-migrate certs --fix --to ${target} (as of ${asOf})`, `# Apply with: ${applyCommand}   (or patch -p1 from the same directory)`, "#"];
  for (const e of entries) {
    const change = e.to === null ? `delete ${e.attribute} = "${e.from}"` : `${e.attribute} "${e.from}" -> "${e.to}"`;
    const status = e.status === "patched" ? "" : ` [${e.status.toUpperCase()}, not in this patch]`;
    lines.push(`# ${e.address} (${e.file}:${e.line}): ${change}${status}`);
    if (e.status === "patched") {
      lines.push(e.forcesReplacement ? "#   FORCES REPLACEMENT: terraform plan shows this resource replaced (-/+)" : "#   updates in place");
    }
    if (e.reason) lines.push(`#   ${e.reason}`);
    for (const c of e.commands) lines.push(`#   API: ${c}   (prints the request; add --yes to send it)`);
    lines.push(`#   ${e.note}`);
  }
  return lines.map((l) => l.replace(/[\r\n]+/g, " ")).join("\n") + "\n\n";
}

const toSlashes = (p: string): string => p.split(path.sep).join("/");

/** A path for messages: relative to cwd when inside it, else absolute. */
function shown(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === "") return ".";
  return rel.startsWith("..") || path.isAbsolute(rel) ? abs : toSlashes(rel);
}

/** A path as a shell word: as is when it needs no quoting, else single-quoted. */
const shellWord = (p: string): string => (/^[A-Za-z0-9_./@%+=:,-]+$/.test(p) ? p : shellQuote(p));

/**
 * planCertificateFixes with the provider version of each certificate's root module: the locked version, else
 * the one major version the root's constraints admit (the gate's provider reader supplies both).
 */
async function planEdits(configuration: { base: string; tree: ConfigTree }, certs: LocatedCertificate[], target: CaTarget): Promise<CertFixEdit[]> {
  const info = await collectProviderInfo(configuration.tree, configuration.base);
  const optionsFor = (rootDir: string): CertFixOptions => {
    const providers = info.roots.find((r) => r.dir === rootDir);
    if (!providers) return {};
    const providerVersion = providers.lock?.version ?? null;
    const constraints = providers.requirements.map((r) => r.constraint).filter((c) => c !== "");
    const providerMajor = providerVersion ? majorOfVersion(providerVersion) : onlyAdmittedMajor(constraints);
    return { providerMajor, providerVersion };
  };
  const groups = new Map<string, { options: CertFixOptions; certs: LocatedCertificate["certificate"][] }>();
  for (const c of certs) {
    const options = optionsFor(c.rootDir);
    const key = JSON.stringify(options);
    const g = groups.get(key) ?? { options, certs: [] };
    g.certs.push(c.certificate);
    groups.set(key, g);
  }
  return [...groups.values()].flatMap((g) => planCertificateFixes(g.certs, target, g.options));
}

function majorOfVersion(v: string): 3 | 4 | 5 | null {
  const m = /^v?(\d+)\./.exec(v);
  const n = m ? Number(m[1]) : NaN;
  return n === 3 || n === 4 || n === 5 ? n : null;
}
