// Loads one module directory: parses its files and extracts the blocks the tool cares about (resources,
// data sources, module calls, terraform/required_providers, variables and locals for light evaluation).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { InputError } from "../../core/model.js";
import { fsError } from "./discover.js";
import { parseConfigFile, parseConfigFileSelective, skimConfigFile, type ParsedFile, type ParseOutcome } from "../hcl/parse.js";
import { mayDeclareTreeBlock, mayHoldCloudflare } from "../hcl/prefilter.js";
import { isRelevant } from "../../core/legacy-types.js";
import type { HclJudge } from "../parse-pool/pool.js";
import { expressionText, literalString } from "./values.js";
import { inputRecord } from "../../core/null-proto.js";

export interface ConfigResource {
  mode: "managed" | "data";
  type: string;
  name: string;
  /** Display path (relative to the working directory). */
  file: string;
  line: number;
  body: Record<string, unknown>;
  /**
   * The body was not read (it is `{}`): the default, selective reading reads the bodies of the types the
   * tool uses only (core/legacy-types.ts `isRelevant`); every resource is still listed with its file and line.
   */
  skipped?: true;
}

export interface ModuleCall {
  name: string;
  source: string | null;
  file: string;
  line: number;
  count: unknown;
  forEach: unknown;
  /** Every other argument: the module's input variables. */
  inputs: Record<string, unknown>;
}

export interface TerraformBlock {
  file: string;
  line: number;
  body: Record<string, unknown>;
}

/** A `removed { from = … }` block (Terraform 1.7): `destroy = false` forgets the resource instead of destroying it. */
export interface RemovedBlock {
  /** The address as written, relative to the module (`cloudflare_waf_package.owasp`, `module.waf`). */
  from: string;
  /** `lifecycle { destroy = … }`; null when not written (Terraform's default is true). */
  destroy: boolean | null;
  file: string;
  line: number;
}

/** A `moved { from = …, to = … }` block: terraform moves the state entry instead of destroying it. */
export interface MovedBlock {
  /** The addresses as written, relative to the module (`cloudflare_waf_rule.x[0]`, `module.waf["a"]`). */
  from: string;
  to: string | null;
}

export interface ModuleDir {
  /** Absolute directory. */
  dir: string;
  resources: ConfigResource[];
  moduleCalls: ModuleCall[];
  terraformBlocks: TerraformBlock[];
  /** `removed` blocks (absent in directories built by hand in tests). */
  removed?: RemovedBlock[];
  /** `moved` blocks (absent when the directory has none). */
  moved?: MovedBlock[];
  variables: Record<string, { default?: unknown; type?: string }>;
  locals: Record<string, unknown>;
  errors: InputError[];
  /**
   * How the directory was read: `full` (hcl2json, every block), `fast` (the blocks the tool uses:
   * Cloudflare resources it reads, module calls, variables, locals, terraform blocks), `modules` (module
   * calls and terraform blocks: no file of the directory can hold a Cloudflare resource) or `structure`
   * (module calls, and every Cloudflare resource by type and name without its body). See `LoadOptions.mode`. In
   * `fast` and `modules`, resources the tool does not read are listed without their body.
   */
  readAs?: "full" | "fast" | "modules" | "structure";
  /**
   * Characters in the directory's files that may hold a Cloudflare resource (see hcl/prefilter.ts): what
   * building it reads closely; 0: no file may hold one.
   */
  relevantChars?: number;
}

export interface LoadOptions {
  /** Reported paths are relative to this directory. */
  base: string;
  /** When set, only these files of the directory are read (a file named on the command line). */
  files?: string[];
  /**
   * `full` (default): hcl2json reads every file, and `resources` holds every resource.
   * `auto`: `fast` when a file of the directory may hold a Cloudflare resource, else `modules`.
   * `fast`: files that may hold Cloudflare resources are checked in full (every syntax error is reported,
   *   by hcl2json) and give their relevant resources, module calls, variables, locals and terraform blocks;
   *   the directory's other files give module calls, variables, locals and terraform blocks, and the rest
   *   of them is skipped over (only gross structural errors are seen).
   * `modules`: module calls and terraform blocks only, everything else skipped over.
   * `structure`: module calls and terraform blocks, and the top-level blocks of every file that may hold a
   *   Cloudflare resource are listed (so `resources` names every Cloudflare resource, without its body):
   *   what the searches of the repository around a run need. Other native-syntax files that cannot declare a
   *   module call are not read at all, and no error of theirs is reported.
   * `probe`: what the tree needs before a directory's turn (a streamed estate reads the directories that
   *   matter later, with `fast`): `modules` when no file may hold a Cloudflare resource; else only the
   *   module calls of the files that may declare one, nothing else parsed and no error kept (the later
   *   read reports them).
   * In `fast` and `modules`, `resources` lists every resource, but only the types the tool reads
   * (core/legacy-types.ts `isRelevant`) with their body; the others are `skipped` (body `{}`).
   */
  mode?: "full" | "auto" | "fast" | "modules" | "structure" | "probe";
  /** hcl2json, on this thread or in workers (parse-pool). Default: on this thread. */
  judge?: HclJudge;
  /** Called after each file with its size in UTF-16 code units (≈ bytes). */
  onFile?: (size: number) => void;
}

/** Blocks read from a file that may hold Cloudflare resources. */
export function selectRelevant(type: string, labels: string[]): boolean {
  switch (type) {
    case "resource":
      return labels.length > 0 && isRelevant("managed", labels[0]!);
    case "data":
      return labels.length > 0 && isRelevant("data", labels[0]!);
    case "module":
    case "variable":
    case "locals":
    case "terraform":
    case "removed":
    case "moved":
      return true;
    default:
      return false;
  }
}

/** Blocks read from the other files of a directory that matters. */
function selectSupporting(type: string): boolean {
  return type === "module" || type === "variable" || type === "locals" || type === "terraform" || type === "removed" || type === "moved";
}

function selectModules(type: string): boolean {
  // `removed` blocks: a root whose legacy blocks are gone may hold only these (the plan's removed.tf).
  return type === "module" || type === "terraform" || type === "removed";
}

export async function loadModuleDir(dir: string, files: string[], opts: LoadOptions): Promise<ModuleDir> {
  const mod: ModuleDir = { dir, resources: [], moduleCalls: [], terraformBlocks: [], variables: inputRecord(), locals: inputRecord(), errors: [] };
  const requested = opts.mode ?? "full";
  // Read the directory's files together (they are small), so the mode can depend on all of them.
  const texts = await Promise.all(
    files.map(async (abs) => {
      const display = displayPath(abs, opts.base);
      const errors: InputError[] = [];
      const text = await readText(abs, display, errors);
      return { display, text, errors };
    }),
  );
  const relevantChars = texts.reduce((n, t) => n + (t.text !== null && mayHoldCloudflare(t.text) ? t.text.length : 0), 0);
  const mayHold = relevantChars > 0;
  const mode = requested === "auto" ? (mayHold ? "fast" : "modules") : requested === "probe" ? (mayHold ? "calls" : "modules") : requested;
  mod.readAs = mode === "calls" ? "modules" : mode;
  mod.relevantChars = relevantChars;
  const parse = (display: string, text: string): Promise<ParseOutcome | null> => {
    if (mode === "full") return parseConfigFile(display, text, opts.judge);
    // The three reads for module calls (and terraform blocks). A native-syntax file that cannot declare one
    // is skipped (`calls`), skimmed for its structure and resource lines (`modules`: most of a big tree's
    // unrelated files), or skipped unless it may hold a Cloudflare resource, whose name the repository's
    // searches want (`structure`).
    if (mode === "structure" || mode === "calls" || mode === "modules") {
      if (display.endsWith(".json") || mayDeclareTreeBlock(text) || (mode === "structure" && mayHoldCloudflare(text))) {
        return parseConfigFileSelective(display, text, { select: selectModules, skim: true, judge: opts.judge });
      }
      return mode === "modules" ? skimConfigFile(display, text, opts.judge) : Promise.resolve(null);
    }
    if (mayHoldCloudflare(text)) return parseConfigFileSelective(display, text, { select: selectRelevant, judge: opts.judge });
    return parseConfigFileSelective(display, text, { select: selectSupporting, skim: true, judge: opts.judge });
  };
  // Parse concurrently (hcl2json may run in workers); extract in file order.
  const outcomes = await Promise.all(
    texts.map(async ({ display, text, errors }) => {
      if (text === null) {
        opts.onFile?.(0);
        return { errors, parsed: null };
      }
      const outcome = await parse(display, text);
      opts.onFile?.(text.length);
      if (outcome === null) return { errors, parsed: null };
      return outcome.ok ? { errors, parsed: outcome.parsed } : { errors: [...errors, outcome.error], parsed: null };
    }),
  );
  for (const o of outcomes) {
    mod.errors.push(...o.errors);
    if (o.parsed) extract(o.parsed, mod);
  }
  if (mode === "calls") mod.errors = [];
  return mod;
}

export function displayPath(abs: string, base: string): string {
  const rel = path.relative(base, abs);
  return (rel === "" ? "." : rel).split(path.sep).join("/");
}

/** Reads a file as UTF-8; a non-UTF-8 file is an input error naming the line of the first bad byte. */
export async function readText(abs: string, display: string, errors: InputError[]): Promise<string | null> {
  let buf: Buffer;
  try {
    // Synchronous: for many small files it costs a third of the promise API's open/stat/read/close round trips.
    buf = readFileSync(abs);
  } catch (e) {
    errors.push(fsError(display, e));
    return null;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    const bad = firstInvalidUtf8(buf);
    const before = buf.subarray(0, bad);
    const line = before.filter((b) => b === 10).length + 1;
    const column = bad - (before.lastIndexOf(10) + 1) + 1;
    errors.push({ file: display, line, column, message: "file is not valid UTF-8" });
    return null;
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0) return i;
    for (let k = 1; k < len; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += len;
  }
  return buf.length;
}

function extract(f: ParsedFile, mod: ModuleDir): void {
  if (f.partial) return extractPartial(f, mod);
  const lines = new Map<string, number[]>();
  for (const b of f.blocks) {
    const key = [b.type, ...b.labels].join("\u0000");
    const arr = lines.get(key) ?? [];
    arr.push(b.line);
    lines.set(key, arr);
  }
  const lineOf = (key: string[], i: number): number => lines.get(key.join("\u0000"))?.[i] ?? 1;

  for (const mode of ["resource", "data"] as const) {
    for (const [type, byName] of Object.entries(objectOf(f.body[mode]))) {
      for (const [name, bodies] of Object.entries(objectOf(byName))) {
        listOf(bodies).forEach((body, i) => {
          mod.resources.push({
            mode: mode === "resource" ? "managed" : "data",
            type,
            name,
            file: f.file,
            line: lineOf([mode, type, name], i),
            body: objectOf(body),
          });
        });
      }
    }
  }

  extractOthers(f, mod, lineOf);
}

/**
 * A selectively parsed file: `body` holds the selected blocks only, `blocks` all of them. Resources are
 * listed in the order a full parse gives (hcl2json's keys are sorted), those not read without their body.
 */
function extractPartial(f: ParsedFile, mod: ModuleDir): void {
  const seen = new Map<string, number>();
  const lines = new Map<string, number[]>();
  const entries: { mode: "managed" | "data"; type: string; name: string; index: number; line: number }[] = [];
  for (const b of f.blocks) {
    if ((b.type === "resource" || b.type === "data") && b.labels.length === 2) {
      const key = b.type + "\u0000" + b.labels[0] + "\u0000" + b.labels[1];
      const index = seen.get(key) ?? 0;
      seen.set(key, index + 1);
      entries.push({ mode: b.type === "resource" ? "managed" : "data", type: b.labels[0]!, name: b.labels[1]!, index, line: b.line });
    } else if (b.type === "module" || b.type === "variable" || b.type === "locals" || b.type === "terraform") {
      const key = [b.type, ...b.labels].join("\u0000");
      const arr = lines.get(key);
      if (arr) arr.push(b.line);
      else lines.set(key, [b.line]);
    }
  }
  if (entries.length > 1) entries.sort(byModeTypeName);
  const resources = objectOf(f.body.resource);
  const data = objectOf(f.body.data);
  for (const e of entries) {
    const byType = e.mode === "managed" ? resources : data;
    const byName = objectOf(Object.hasOwn(byType, e.type) ? byType[e.type] : undefined);
    const body = Object.hasOwn(byName, e.name) ? listOf(byName[e.name])[e.index] : undefined;
    mod.resources.push(
      body === undefined
        ? { mode: e.mode, type: e.type, name: e.name, file: f.file, line: e.line, body: {}, skipped: true }
        : { mode: e.mode, type: e.type, name: e.name, file: f.file, line: e.line, body: (body ?? {}) as Record<string, unknown> },
    );
  }
  extractOthers(f, mod, (key, i) => lines.get(key.join("\u0000"))?.[i] ?? 1);
}

/** The order of a full parse: managed before data, then type and name as hcl2json sorts them, then file order. */
function byModeTypeName(a: { mode: string; type: string; name: string; index: number }, b: { mode: string; type: string; name: string; index: number }): number {
  if (a.mode !== b.mode) return a.mode === "managed" ? -1 : 1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.index - b.index;
}

/** Module calls, terraform blocks, variables and locals. */
function extractOthers(f: ParsedFile, mod: ModuleDir, lineOf: (key: string[], i: number) => number): void {
  for (const [name, bodies] of Object.entries(objectOf(f.body.module))) {
    listOf(bodies).forEach((raw, i) => {
      const body = objectOf(raw);
      const { source, count, for_each, providers: _p, depends_on: _d, version: _v, ...inputs } = body;
      mod.moduleCalls.push({
        name,
        source: literalString(source),
        file: f.file,
        line: lineOf(["module", name], i),
        count,
        forEach: for_each,
        inputs,
      });
    });
  }

  listOf(f.body.terraform).forEach((body, i) => mod.terraformBlocks.push({ file: f.file, line: lineOf(["terraform"], i), body: objectOf(body) }));
  listOf(f.body.removed).forEach((raw, i) => {
    const body = objectOf(raw);
    const from = expressionText(body.from);
    if (from === null) return;
    const destroy = objectOf(listOf(body.lifecycle)[0]).destroy;
    (mod.removed ??= []).push({ from, destroy: typeof destroy === "boolean" ? destroy : null, file: f.file, line: lineOf(["removed"], i) });
  });

  listOf(f.body.moved).forEach((raw) => {
    const body = objectOf(raw);
    const from = expressionText(body.from);
    if (from !== null) (mod.moved ??= []).push({ from, to: expressionText(body.to) });
  });

  for (const [name, bodies] of Object.entries(objectOf(f.body.variable))) {
    const body = objectOf(listOf(bodies)[0]);
    const type = expressionText(body.type) ?? (typeof body.type === "string" ? body.type : null);
    mod.variables[name] = { ...(Object.hasOwn(body, "default") ? { default: body.default } : {}), ...(type !== null ? { type } : {}) };
  }
  for (const l of listOf(f.body.locals)) Object.assign(mod.locals, objectOf(l));
}

/**
 * hcl2json is schema-less: `resource "only_one_label" {}` or `module {}` parse, and give arrays where
 * labels were expected. Such shapes are skipped (Terraform itself rejects them) rather than crash.
 */
function objectOf(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : inputRecord();
}

function listOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A module source that points into the local file system (Terraform: starts with ./ or ../). */
export function isLocalSource(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source === "." || source === "..";
}
