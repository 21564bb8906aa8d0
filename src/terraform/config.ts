// Loads one module directory: parses its files and extracts the blocks the tool cares about (resources,
// data sources, module calls, terraform/required_providers, variables and locals for light evaluation).
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { InputError } from "../core/model.js";
import { fsError } from "./discover.js";
import { parseConfigFile, type ParsedFile } from "./hcl/parse.js";
import { literalString } from "./values.js";

export interface ConfigResource {
  mode: "managed" | "data";
  type: string;
  name: string;
  /** Display path (relative to the working directory). */
  file: string;
  line: number;
  body: Record<string, unknown>;
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

export interface ModuleDir {
  /** Absolute directory. */
  dir: string;
  resources: ConfigResource[];
  moduleCalls: ModuleCall[];
  terraformBlocks: TerraformBlock[];
  variables: Record<string, { default?: unknown }>;
  locals: Record<string, unknown>;
  errors: InputError[];
}

export interface LoadOptions {
  /** Reported paths are relative to this directory. */
  base: string;
  /** When set, only these files of the directory are read (a file named on the command line). */
  files?: string[];
}

export async function loadModuleDir(dir: string, files: string[], opts: LoadOptions): Promise<ModuleDir> {
  const mod: ModuleDir = { dir, resources: [], moduleCalls: [], terraformBlocks: [], variables: {}, locals: {}, errors: [] };
  const parsed: ParsedFile[] = [];
  for (const abs of files) {
    const display = displayPath(abs, opts.base);
    const text = await readText(abs, display, mod.errors);
    if (text === null) continue;
    const outcome = await parseConfigFile(display, text);
    if (!outcome.ok) mod.errors.push(outcome.error);
    else parsed.push(outcome.parsed);
  }
  for (const f of parsed) extract(f, mod);
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
    buf = await readFile(abs);
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
  const lines = new Map<string, number[]>();
  for (const b of f.blocks) {
    const key = [b.type, ...b.labels].join("\u0000");
    const arr = lines.get(key) ?? [];
    arr.push(b.line);
    lines.set(key, arr);
  }
  const lineOf = (key: string[], i: number): number => lines.get(key.join("\u0000"))?.[i] ?? 1;

  for (const mode of ["resource", "data"] as const) {
    const byType = (f.body[mode] ?? {}) as Record<string, Record<string, unknown[]>>;
    for (const [type, byName] of Object.entries(byType)) {
      for (const [name, bodies] of Object.entries(byName ?? {})) {
        (bodies ?? []).forEach((body, i) => {
          mod.resources.push({
            mode: mode === "resource" ? "managed" : "data",
            type,
            name,
            file: f.file,
            line: lineOf([mode, type, name], i),
            body: (body ?? {}) as Record<string, unknown>,
          });
        });
      }
    }
  }

  const modules = (f.body.module ?? {}) as Record<string, unknown[]>;
  for (const [name, bodies] of Object.entries(modules)) {
    (bodies ?? []).forEach((raw, i) => {
      const body = (raw ?? {}) as Record<string, unknown>;
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

  const terraform = (f.body.terraform ?? []) as unknown[];
  terraform.forEach((body, i) => mod.terraformBlocks.push({ file: f.file, line: lineOf(["terraform"], i), body: (body ?? {}) as Record<string, unknown> }));

  const variables = (f.body.variable ?? {}) as Record<string, unknown[]>;
  for (const [name, bodies] of Object.entries(variables)) {
    const body = ((bodies ?? [])[0] ?? {}) as Record<string, unknown>;
    mod.variables[name] = "default" in body ? { default: body.default } : {};
  }
  const locals = (f.body.locals ?? []) as unknown[];
  for (const l of locals) Object.assign(mod.locals, l as Record<string, unknown>);
}

/** A module source that points into the local file system (Terraform: starts with ./ or ../). */
export function isLocalSource(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source === "." || source === "..";
}
