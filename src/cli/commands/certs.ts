// `cf-waf-migrate certs`: which certificates the Let's Encrypt chain change affects (spec part B), as of a
// day, and with `--fix --to CA` a patch that switches `certificate_authority` where that is safe.
//
//   certs [paths..] [--state FILE]... [--as-of YYYY-MM-DD] [--format F] [--output FILE] [--fail-on LEVEL]
//         [--fix --to default|google|ssl_com [--patch-file FILE] [--force]]
//
// The patch is written before the report is printed (the report says where it went); an existing patch
// file is never overwritten without --force. Edits the editor refuses are listed, not written.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { planCertificateFixes, type CaTarget, type CertFixEdit, type CertFixOptions } from "../../core/cert-fix.js";
import { auditCertificates, timeline, toIsoDay, type Certificate } from "../../core/certs.js";
import { onlyAdmittedMajor } from "../../core/provider-version.js";
import { buildReport } from "../../core/report.js";
import { shellQuote } from "../../core/shell-quote.js";
import { unifiedDiff } from "../../core/unified-diff.js";
import { renderCertsText, type CertFixEntry, type CertFixSummary, type CertInventoryEntry, type CertsReport } from "../../render/certs-text.js";
import { AttributeEditError, setAttribute } from "../../terraform/edit/set-attribute.js";
import { FileExistsError, writeNewFile } from "../../terraform/edit/fs-atomic.js";
import { collectProviderInfo } from "../../terraform/versions/providers.js";
import { readCertificates } from "../../terraform/readers/certificates.js";
import { loadCliWorkspace } from "../workspace.js";
import type { Workspace } from "../../terraform/inventory/workspace.js";
import { CliError } from "../errors.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";

const FORMATS = ["text", "json", "markdown", "sarif", "junit", "html", "checkstyle", "compact"] as const;
export const CA_TARGETS = ["default", "google", "ssl_com"] as const;
export const DEFAULT_PATCH_FILE = "certificate-ca.patch";

/** Resource types the certificate audit reads (the report's `resources` lists only these). */
export const CERTIFICATE_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  "cloudflare_zone",
  "cloudflare_certificate_pack",
  "cloudflare_total_tls",
  "cloudflare_custom_hostname",
  "cloudflare_custom_ssl",
]);

export interface CertsArgs extends CommonArgs {
  "as-of"?: string;
  fix: boolean;
  to?: string;
  "patch-file"?: string;
  force: boolean;
}

/** `--as-of`: a real calendar day `YYYY-MM-DD`; default today (UTC). */
export function parseAsOf(value: string | undefined, now: Date = new Date()): string {
  if (value === undefined) return toIsoDay(now)!;
  const v = String(value).trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || toIsoDay(v) !== v) {
    throw new CliError(`--as-of ${JSON.stringify(String(value))}: expected a calendar date YYYY-MM-DD (e.g. 2024-09-09)`);
  }
  return v;
}

export const certsCommand: CommandModule<object, CertsArgs> = {
  command: "certs [paths..]",
  describe: "Audit certificates for the Let's Encrypt chain change; --fix --to CA writes a patch switching certificate_authority",
  builder: (y: Argv) =>
    withExamples(withOutputOptions(withInputOptions(y), FORMATS, "never"), [
      ["$0 certs . --state terraform.tfstate", "certificates that still name Let's Encrypt, most urgent first"],
      ["$0 certs . --fix --to google", "write a patch that switches them to Google Trust Services"],
    ])
      .option("as-of", { type: "string", describe: "compute urgencies as of this day, YYYY-MM-DD (default: today, UTC)", requiresArg: true })
      .option("fix", { type: "boolean", default: false, describe: "write a patch that switches certificate_authority = \"lets_encrypt\" to --to" })
      .option("to", { type: "string", choices: CA_TARGETS, describe: "with --fix: the CA to switch to (default: the service chooses; packs and Total TLS get google)" })
      .option("patch-file", { type: "string", describe: `with --fix: where to write the patch (default ${DEFAULT_PATCH_FILE} in the working directory)`, requiresArg: true })
      .option("force", { type: "boolean", default: false, describe: "with --fix: overwrite an existing patch file" }) as unknown as Argv<CertsArgs>,
  handler: async (argv: ArgumentsCamelCase<CertsArgs>) => {
    const asOf = parseAsOf(argv["as-of"]);
    const target = fixTarget(argv);
    const cwd = process.cwd();
    const ws = await loadCliWorkspace(argv, cwd);
    const resources = ws.resources.filter((r) => CERTIFICATE_RESOURCE_TYPES.has(r.type));
    const certs = readCertificates(resources);
    const findings = auditCertificates(certs, asOf);
    const report: CertsReport = buildReport({
      version: toolVersion(),
      root: relativeRoot(ws.base, cwd),
      resources,
      analysis: { zones: [], findings },
      extraFindings: ws.findings,
      errors: ws.errors,
    });
    report.certs = { asOf, timeline: timeline(asOf), certificates: certs.map(inventoryEntry) };

    if (target) {
      const fix = await buildCertificateFix(ws, certs, target, {
        cwd,
        patchFile: argv["patch-file"] ?? DEFAULT_PATCH_FILE,
        force: argv.force,
        asOf,
      });
      report.certs.fix = fix.summary;
      if (!argv.quiet) process.stderr.write(fixNotice(fix.summary));
    }

    await emitReport(report, {
      formats: argv.format,
      output: argv.output,
      title: "certs",
      allowed: FORMATS,
      renderers: { text: (r, ctx) => renderCertsText(r as CertsReport, ctx) },
    });
    process.exitCode = exitCodeFor(report, parseFailOn(argv["fail-on"], "never"));
  },
};

function fixTarget(argv: CertsArgs): CaTarget | null {
  if (!argv.fix) {
    if (argv.to !== undefined) throw new CliError("--to goes with --fix (certs --fix --to default|google|ssl_com)");
    if (argv["patch-file"] !== undefined) throw new CliError("--patch-file goes with --fix");
    return null;
  }
  if (argv.to === undefined) throw new CliError("--fix needs --to default|google|ssl_com: the CA to switch to");
  return argv.to as CaTarget;
}

function inventoryEntry(c: Certificate): CertInventoryEntry {
  return {
    address: c.ref.address,
    kind: c.kind,
    file: c.ref.file,
    line: c.ref.line,
    zone: c.zone,
    certificateAuthority: c.certificateAuthority,
    inConfig: c.ref.inConfig,
    inState: c.ref.inState,
  };
}

function fixNotice(fix: CertFixSummary): string {
  const patched = fix.edits.filter((e) => e.status === "patched");
  const replaced = patched.filter((e) => e.forcesReplacement).length;
  const other = fix.edits.length - patched.length;
  if (!fix.patchFile) return `cf-waf-migrate: no patch written (${fix.edits.length ? `${other} edit(s) not applicable` : "nothing to change"})\n`;
  return (
    `cf-waf-migrate: wrote ${fix.patchFile} (${patched.length} edit${patched.length === 1 ? "" : "s"}` +
    `${replaced ? `, ${replaced} forcing a replacement` : ""}${other ? `, ${other} not applied` : ""}); apply with: ${fix.applyCommand}\n`
  );
}

// ---- --fix ----------------------------------------------------------------------------------------------

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
  ws: Workspace,
  certs: Certificate[],
  target: CaTarget,
  opts: CertificateFixOptions,
): Promise<CertificateFixResult> {
  const edits = mergeSameBlock(await planEdits(ws, certs, target));
  const patchAbs = path.resolve(opts.cwd, opts.patchFile);
  const entries: CertFixEntry[] = [];
  const diffs: { abs: string; oldText: string; newText: string }[] = [];

  const byFile = new Map<string, CertFixEdit[]>();
  for (const e of edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  for (const [file, fileEdits] of byFile) {
    const abs = path.resolve(ws.base, file);
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
  entries.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);

  if (diffs.length === 0) return { summary: { target, patchFile: null, applyCommand: null, edits: entries }, patch: null };

  const patchDir = path.dirname(patchAbs);
  const under = (dir: string, f: string) => {
    const rel = path.relative(dir, f);
    return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  };
  const root = diffs.every((d) => under(patchDir, d.abs)) ? patchDir : ws.base;
  const patchShown = shown(opts.cwd, patchAbs);
  const applyCommand =
    root === opts.cwd
      ? `git apply ${shellWord(patchShown)}`
      : `cd ${shellWord(shown(opts.cwd, root))} && git apply ${shellWord(toSlashes(path.relative(root, patchAbs)))}`;

  const patch =
    preamble(entries, target, opts.asOf, applyCommand) +
    diffs
      .sort((a, b) => a.abs.localeCompare(b.abs))
      .map((d) => unifiedDiff(d.oldText, d.newText, toSlashes(path.relative(root, d.abs))))
      .join("");
  try {
    await writeNewFile(patchAbs, patch, { force: opts.force });
  } catch (e) {
    if (e instanceof FileExistsError) {
      throw new CliError(`${patchShown} already exists; pass --force to overwrite it, or --patch-file FILE to write elsewhere`);
    }
    throw new CliError(`cannot write ${patchShown}: ${(e as Error).message}`);
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
    first.note += ` The same block also serves ${e.address}.`;
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
 * planCertificateFixes with the provider version of each resource's root module: the locked version, else
 * the one major version the root's constraints admit (the gate's provider reader supplies both).
 */
async function planEdits(ws: Workspace, certs: Certificate[], target: CaTarget): Promise<CertFixEdit[]> {
  const info = await collectProviderInfo(ws.tree, ws.base);
  const optionsFor = (file: string | null): CertFixOptions => {
    const node = file ? ws.tree.nodes.find((n) => n.dir.resources.some((r) => r.file === file)) : undefined;
    if (!node) return {};
    let root = node;
    while (root.parent) root = root.parent;
    const providers = info.roots.find((r) => r.dir === root.dir.dir);
    if (!providers) return {};
    const providerVersion = providers.lock?.version ?? null;
    const constraints = providers.requirements.map((r) => r.constraint).filter((c) => c !== "");
    const providerMajor = providerVersion ? majorOfVersion(providerVersion) : onlyAdmittedMajor(constraints);
    return { providerMajor, providerVersion };
  };
  const groups = new Map<string, { options: CertFixOptions; certs: Certificate[] }>();
  for (const c of certs) {
    const options = optionsFor(c.ref.file);
    const key = JSON.stringify(options);
    const g = groups.get(key) ?? { options, certs: [] };
    g.certs.push(c);
    groups.set(key, g);
  }
  return [...groups.values()].flatMap((g) => planCertificateFixes(g.certs, target, g.options));
}

function majorOfVersion(v: string): 3 | 4 | 5 | null {
  const m = /^v?(\d+)\./.exec(v);
  const n = m ? Number(m[1]) : NaN;
  return n === 3 || n === 4 || n === 5 ? n : null;
}
