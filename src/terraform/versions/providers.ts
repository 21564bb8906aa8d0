// The Cloudflare provider's version requirements: every `required_providers` entry for it in the
// configuration tree (with the file and line of the entry), and each root module's `.terraform.lock.hcl`.
//
// Forms of an entry that are recognised (Terraform and OpenTofu accept all of them):
//
//   cloudflare = { source = "cloudflare/cloudflare", version = "~> 3.30" }
//   cloudflare = { source = "registry.terraform.io/cloudflare/cloudflare", version = ">= 3.0" }
//   cloudflare = { source = "registry.opentofu.org/cloudflare/cloudflare" }     (no version: any version)
//   cf         = { source = "cloudflare/cloudflare", version = "~> 4.52" }     (another local name)
//   cloudflare = "~> 3.0"                                                      (the pre-0.13 string form)
//   cloudflare = { version = "~> 3.0" }                                        (implied source)
//
// An entry is the Cloudflare provider when its source is `[HOST/]cloudflare/cloudflare` (any registry host,
// case-insensitive) or the implied `hashicorp/cloudflare`, or when it has no source and its local name is
// `cloudflare` (Terraform then implies the source from the local name).
//
// hcl2json keeps no positions, so each entry's line is found again in the file text: within the
// `terraform {}` block that starts on the block's known line, inside its `required_providers {}` block,
// the line of `NAME =` at the top level of that block (comments, strings and heredocs masked first, so a
// commented-out entry never matches). `.tf.json` files take the line of the entry's key.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { LEGACY_WAF_RESOURCE_TYPES } from "../../core/legacy-types.js";
import type { InputError } from "../../core/model.js";
import { isSatisfiable, parseConstraint, parseVersion } from "../../core/provider-version.js";
import { displayPath, type ModuleDir, type TerraformBlock } from "../config/load.js";
import { fsError } from "../config/discover.js";
import { parseJsonWithPositions } from "../hcl/json-positions.js";
import { scanStructure } from "../hcl/structure.js";
import { cloudflareLock, LockFileError, parseLockFile } from "./lockfile.js";
import { configAddressFor } from "../inventory/inventory.js";
import type { ConfigTree, ModuleNode } from "../config/modules.js";
import type { StateRead } from "../state/read.js";
import { compareText } from "../../core/text-order.js";

/** One `required_providers` entry for the Cloudflare provider. */
export interface ProviderRequirement {
  /** The local name the entry is written under (`cloudflare`, or e.g. `cf`). */
  localName: string;
  /** The `source` as written; null when the entry has none (implied from the local name). */
  source: string | null;
  /** The `version` constraint as written; "" when the entry has none (any version). */
  constraint: string;
  /** Written in the legacy string form `cloudflare = "~> 3.0"`. */
  stringForm: boolean;
  /** Display path of the file (relative to the report base). */
  file: string;
  /** 1-based line of the `NAME = …` line of the entry. */
  line: number;
  /** 1-based line of the entry's `version = …` (the entry's line for the string form or when not found). */
  versionLine: number;
  /** Config module path of the declaring module ("" for the root module, `module.waf`, …). */
  module: string;
}

/** The Cloudflare provider's block of a root module's `.terraform.lock.hcl`. */
export interface ProviderLock {
  /** Source address as written in the lock file. */
  source: string;
  /** The selected version; null when the block has none (reported as an input error as well). */
  version: string | null;
  /** The constraints recorded at selection time; null when absent. */
  constraints: string | null;
  file: string;
  /** 1-based line of the `provider "…" {` block. */
  line: number;
}

/** The Cloudflare provider requirements of one root module: itself and every local module it reaches. */
export interface RootProviders {
  /** Display path of the root module's directory ("." for the base directory). */
  root: string;
  /** Absolute directory of the root module. */
  dir: string;
  /** Every Cloudflare entry of the root and its local modules, root first, then in module-tree order. */
  requirements: ProviderRequirement[];
  lock: ProviderLock | null;
  /** Display paths of the directories of the root and of every module it reaches. */
  moduleDirs: string[];
  /** The root module's first `terraform {}` block, else its first file: where a finding can point when nothing else says. */
  anchor: { file: string; line: number } | null;
  /** Every `required_version` of the root and of every local module it reaches (Terraform checks them all). */
  terraformRequirements?: TerraformRequirement[];
}

/** One `required_version` of a `terraform {}` block. */
export interface TerraformRequirement {
  constraint: string;
  file: string;
  /** 1-based line of `required_version =` (the block's line when it cannot be found). */
  line: number;
  module: string;
}

export interface ProviderInfo {
  roots: RootProviders[];
  /** Lock files or configuration files that could not be read, lock blocks without a version. */
  errors: InputError[];
}

export const LOCK_FILE_NAME = ".terraform.lock.hcl";

/** `[HOST/]NAMESPACE/TYPE` with NAMESPACE/TYPE `cloudflare/cloudflare` (or the implied `hashicorp/cloudflare`). */
export function isCloudflareSource(source: string): boolean {
  const parts = source.trim().toLowerCase().split("/");
  if (parts.length < 2 || parts.length > 3) return false;
  const [ns, type] = parts.slice(-2) as [string, string];
  return type === "cloudflare" && (ns === "cloudflare" || ns === "hashicorp");
}

/**
 * Collects, for every root module of the tree, the Cloudflare `required_providers` entries of the root and
 * of every local module it calls, and the root directory's lock file. `base` is the directory display paths
 * are relative to (`Workspace.base`).
 */
export async function collectProviderInfo(tree: ConfigTree, base: string): Promise<ProviderInfo> {
  const errors: InputError[] = [];
  const texts = new Map<string, Promise<string | null>>();
  const readDisplay = (display: string): Promise<string | null> => {
    let p = texts.get(display);
    if (!p) {
      p = readFile(path.resolve(base, display), "utf8").then(
        (t) => t,
        (e: unknown) => {
          errors.push(fsError(display, e));
          return null;
        },
      );
      texts.set(display, p);
    }
    return p;
  };
  const perDirVersions = new Map<ModuleDir, Promise<Omit<TerraformRequirement, "module">[]>>();
  const requiredVersionsOf = (dir: ModuleDir) => {
    let p = perDirVersions.get(dir);
    if (!p) perDirVersions.set(dir, (p = dirRequiredVersions(dir, readDisplay)));
    return p;
  };
  const perDir = new Map<ModuleDir, Promise<Omit<ProviderRequirement, "module">[]>>();
  const requirementsOf = (dir: ModuleDir) => {
    let p = perDir.get(dir);
    if (!p) perDir.set(dir, (p = dirRequirements(dir, readDisplay)));
    return p;
  };

  const roots: RootProviders[] = [];
  for (const root of tree.roots) {
    const nodes = tree.nodes.filter((n) => rootOf(n) === root);
    const requirements: ProviderRequirement[] = [];
    const terraformRequirements: TerraformRequirement[] = [];
    for (const n of nodes) {
      for (const r of await requirementsOf(n.dir)) requirements.push({ ...r, module: n.path });
      for (const r of await requiredVersionsOf(n.dir)) terraformRequirements.push({ ...r, module: n.path });
    }
    const moduleDirs = [...new Set(nodes.map((n) => displayPath(n.dir.dir, base)))];
    const lock = await readRootLock(root.dir.dir, base, errors);
    const tb = root.dir.terraformBlocks[0];
    // Without a terraform block, the gate's finding points at what it is about: the root's first legacy
    // block in file order (resources are listed by type, so [0] could be a cloudflare_ruleset), else the
    // first resource or module call.
    const first = firstInFileOrder(root.dir.resources.filter((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type))) ?? firstInFileOrder([...root.dir.resources, ...root.dir.moduleCalls]);
    const anchor = tb ? { file: tb.file, line: tb.line } : first ? { file: first.file, line: first.line } : null;
    roots.push({ root: displayPath(root.dir.dir, base), dir: root.dir.dir, requirements, lock, moduleDirs, anchor, terraformRequirements });
  }
  return { roots, errors };
}

/**
 * The root configuration(s) a state file belongs to. A state names no directory, so it is matched by
 * content: the root(s) whose resources (config addresses, without instance keys) the state holds most of;
 * every root when the state shares no address with any of them.
 */
export function stateOwners(tree: ConfigTree, info: ProviderInfo, state: StateRead): RootProviders[] {
  if (info.roots.length <= 1) return info.roots;
  const addressesOf = new Map<string, Set<string>>();
  for (const n of tree.nodes) {
    const dir = rootOf(n).dir.dir;
    let set = addressesOf.get(dir);
    if (!set) addressesOf.set(dir, (set = new Set()));
    for (const r of n.dir.resources) set.add(configAddressFor(n, r));
  }
  const inState = new Set(state.instances.map((i) => i.configAddress));
  const scores = info.roots.map((r) => [...(addressesOf.get(r.dir) ?? [])].filter((a) => inState.has(a)).length);
  const best = Math.max(...scores);
  return best === 0 ? info.roots : info.roots.filter((_r, i) => scores[i] === best);
}

function rootOf(n: ModuleNode): ModuleNode {
  let r = n;
  while (r.parent) r = r.parent;
  return r;
}

/** Reads `<dir>/.terraform.lock.hcl`; a missing file is no lock (null), anything else unreadable is an error. */
export async function readRootLock(dir: string, base: string, errors: InputError[]): Promise<ProviderLock | null> {
  const abs = path.join(dir, LOCK_FILE_NAME);
  const display = displayPath(abs, base);
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    errors.push(fsError(display, e));
    return null;
  }
  try {
    const entry = cloudflareLock(await parseLockFile(text, display));
    if (!entry) return null;
    if (entry.version === null) {
      errors.push({ file: display, line: entry.line, column: null, message: `provider "${entry.source}" has no version: run terraform init to rewrite the lock file` });
    }
    return { source: entry.source, version: entry.version, constraints: entry.constraints, file: display, line: entry.line };
  } catch (e) {
    if (e instanceof LockFileError) {
      errors.push({ file: display, line: e.line, column: e.column, message: e.detail });
      return null;
    }
    throw e;
  }
}

// ---- required_providers entries of one module directory ---------------------------------------------

interface RawEntry {
  localName: string;
  source: string | null;
  constraint: string;
  stringForm: boolean;
}

/** The Cloudflare entries of one `required_providers` body (hcl2json shape). */
export function cloudflareEntries(body: unknown): RawEntry[] {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return [];
  const out: RawEntry[] = [];
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === "string" || typeof value === "number") {
      // Legacy form: `name = "constraint"`; the source is implied from the local name.
      if (name.toLowerCase() === "cloudflare") out.push({ localName: name, source: null, constraint: String(value), stringForm: true });
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const v = value as Record<string, unknown>;
    const source = typeof v.source === "string" ? v.source : null;
    const isCloudflare = source !== null ? isCloudflareSource(source) : name.toLowerCase() === "cloudflare";
    if (!isCloudflare) continue;
    const version = typeof v.version === "string" || typeof v.version === "number" ? String(v.version) : "";
    out.push({ localName: name, source, constraint: version, stringForm: false });
  }
  return out;
}

/** `required_providers` may be one object or (several blocks, or JSON arrays) a list of them. */
function requiredProvidersBodies(tb: TerraformBlock): unknown[] {
  const rp = tb.body.required_providers;
  if (rp === undefined || rp === null) return [];
  return Array.isArray(rp) ? rp : [rp];
}

async function dirRequirements(
  dir: ModuleDir,
  readDisplay: (display: string) => Promise<string | null>,
): Promise<Omit<ProviderRequirement, "module">[]> {
  const out: Omit<ProviderRequirement, "module">[] = [];
  // The index of each terraform block among the blocks of its file that start on the same line.
  const seen = new Map<string, number>();
  for (const tb of dir.terraformBlocks) {
    const bodies = requiredProvidersBodies(tb);
    const entries = bodies.map(cloudflareEntries);
    if (entries.every((e) => e.length === 0)) continue;
    const key = `${tb.file}\u0000${tb.line}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const text = await readDisplay(tb.file);
    const lines = text === null ? null : tb.file.endsWith(".json") ? jsonEntryLines(text) : hclEntryLines(text, tb.line, nth);
    entries.forEach((list, i) => {
      for (const e of list) {
        const at = lines?.(i, e.localName) ?? null;
        const line = at?.line ?? tb.line;
        out.push({ ...e, file: tb.file, line, versionLine: at?.versionLine ?? line });
      }
    });
  }
  return out;
}

/** The `required_version` of each terraform block of one module directory, with its line. */
async function dirRequiredVersions(
  dir: ModuleDir,
  readDisplay: (display: string) => Promise<string | null>,
): Promise<Omit<TerraformRequirement, "module">[]> {
  const out: Omit<TerraformRequirement, "module">[] = [];
  const seen = new Map<string, number>();
  for (const tb of dir.terraformBlocks) {
    const key = `${tb.file}\u0000${tb.line}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const value = tb.body.required_version;
    if (typeof value !== "string" && typeof value !== "number") continue;
    const text = await readDisplay(tb.file);
    let line: number | null = null;
    if (text !== null) {
      if (tb.file.endsWith(".json")) {
        const res = parseJsonWithPositions(text);
        line = res.ok ? (res.keyLines.get(["terraform", "required_version"].join("\u0000")) ?? null) : null;
      } else line = hclTerraformAttributeLine(text, tb.line, nth, "required_version");
    }
    out.push({ constraint: String(value), file: tb.file, line: line ?? tb.line });
  }
  return out;
}

/** The line of a top-level attribute `name =` of the `nth` terraform block starting on `blockLine`. */
export function hclTerraformAttributeLine(text: string, blockLine: number, nth: number, name: string): number | null {
  const block = scanStructure(text).blocks.filter((b) => b.type === "terraform" && b.line === blockLine)[nth];
  if (!block) return null;
  const masked = maskTrivia(text);
  const a = topLevelAttributes(masked, block.bodyStart, block.bodyEnd).find((x) => x.name === name);
  return a ? lineIndex(text)(a.offset) : null;
}

/** Where an entry is: the `NAME =` line, and the line of its `version =` when the entry is an object. */
export interface EntryLines {
  line: number;
  versionLine: number | null;
}

/**
 * For native syntax: a lookup (index of the `required_providers` block within the terraform block, local
 * name) → lines, for the `nth` terraform block starting on `blockLine`.
 */
export function hclEntryLines(text: string, blockLine: number, nth = 0): (rpIndex: number, name: string) => EntryLines | null {
  const structure = scanStructure(text);
  const block = structure.blocks.filter((b) => b.type === "terraform" && b.line === blockLine)[nth];
  if (!block) return () => null;
  const masked = maskTrivia(text);
  const lineAt = lineIndex(text);
  const rpBlocks: Map<string, EntryLines>[] = [];
  // Top level of the terraform body: find `required_providers {` blocks.
  for (const { openBrace, closeBrace } of topLevelBlocks(masked, block.bodyStart, block.bodyEnd, "required_providers")) {
    const names = new Map<string, EntryLines>();
    for (const a of topLevelAttributes(masked, openBrace + 1, closeBrace)) {
      if (names.has(a.name)) continue;
      let versionLine: number | null = null;
      let j = a.valueStart;
      while (j < closeBrace && /\s/.test(masked[j]!)) j++;
      if (masked[j] === "{") {
        const close = matchBrace(masked, j, closeBrace);
        const v = topLevelAttributes(masked, j + 1, close).find((x) => x.name === "version");
        if (v) versionLine = lineAt(v.offset);
      }
      names.set(a.name, { line: lineAt(a.offset), versionLine });
    }
    rpBlocks.push(names);
  }
  return (i, name) => rpBlocks[i]?.get(name) ?? null;
}

/** For JSON syntax: the line of the key `terraform.required_providers.NAME` (the first one in the file). */
function jsonEntryLines(text: string): (rpIndex: number, name: string) => EntryLines | null {
  const res = parseJsonWithPositions(text);
  if (!res.ok) return () => null;
  return (_i, name) => {
    const key = (...p: string[]) => res.keyLines.get(["terraform", "required_providers", ...p].join("\u0000"));
    const line = key(name) ?? key();
    return line === undefined ? null : { line, versionLine: key(name, "version") ?? null };
  };
}

function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const IDENT = /[A-Za-z_][A-Za-z0-9_-]*/y;

/** Blocks named `type` directly inside the body [from, to) of masked text. */
function topLevelBlocks(masked: string, from: number, to: number, type: string): { openBrace: number; closeBrace: number }[] {
  const out: { openBrace: number; closeBrace: number }[] = [];
  let depth = 0;
  let i = from;
  while (i < to) {
    const c = masked[i]!;
    if (c === "{" || c === "[" || c === "(") {
      depth++;
      i++;
    } else if (c === "}" || c === "]" || c === ")") {
      depth--;
      i++;
    } else if (depth === 0 && /[A-Za-z_]/.test(c) && (i === from || !/[A-Za-z0-9_\-.]/.test(masked[i - 1]!))) {
      IDENT.lastIndex = i;
      const m = IDENT.exec(masked)!;
      const end = i + m[0].length;
      if (m[0] === type) {
        let j = end;
        while (j < to && /\s/.test(masked[j]!)) j++;
        if (masked[j] === "{") {
          const close = matchBrace(masked, j, to);
          out.push({ openBrace: j, closeBrace: close });
          i = close + 1;
          continue;
        }
      }
      i = end;
    } else i++;
  }
  return out;
}

/** Attributes `NAME =` (not `==`) directly inside the body [from, to) of masked text; `valueStart` is past the `=`. */
function topLevelAttributes(masked: string, from: number, to: number): { name: string; offset: number; valueStart: number }[] {
  const out: { name: string; offset: number; valueStart: number }[] = [];
  let depth = 0;
  let atLineStart = true;
  let i = from;
  while (i < to) {
    const c = masked[i]!;
    if (c === "\n") {
      atLineStart = true;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") i++;
    else if (c === "{" || c === "[" || c === "(") {
      depth++;
      atLineStart = false;
      i++;
    } else if (c === "}" || c === "]" || c === ")") {
      depth--;
      atLineStart = false;
      i++;
    } else if (depth === 0 && atLineStart && /[A-Za-z_]/.test(c)) {
      IDENT.lastIndex = i;
      const m = IDENT.exec(masked)!;
      let j = i + m[0].length;
      while (j < to && (masked[j] === " " || masked[j] === "\t")) j++;
      if (masked[j] === "=" && masked[j + 1] !== "=") out.push({ name: m[0], offset: i, valueStart: j + 1 });
      atLineStart = false;
      i = j;
    } else {
      atLineStart = false;
      i++;
    }
  }
  return out;
}

function matchBrace(masked: string, open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    const c = masked[i];
    if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return to;
}

/**
 * The text with comments, quoted strings (with their templates) and heredoc bodies blanked out: same length,
 * newlines kept, so offsets and lines are those of the original. The quotes themselves stay.
 */
export function maskTrivia(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  const n = text.length;
  // Skips a quoted string starting at `i` (on the quote); returns the index just past the closing quote.
  const skipString = (start: number): number => {
    let k = start + 1;
    while (k < n) {
      const c = text[k]!;
      if (c === '"') return k + 1;
      if (c === "\n") return k;
      if (c === "\\") {
        k += 2;
        continue;
      }
      if ((c === "$" || c === "%") && text[k + 1] === c && text[k + 2] === "{") {
        k += 3;
        continue;
      }
      if ((c === "$" || c === "%") && text[k + 1] === "{") {
        k = skipTemplate(k + 2);
        continue;
      }
      k++;
    }
    return n;
  };
  const skipTemplate = (start: number): number => {
    let depth = 1;
    let k = start;
    while (k < n) {
      const c = text[k]!;
      if (c === '"') {
        k = skipString(k);
        continue;
      }
      if (c === "{") depth++;
      else if (c === "}") {
        depth--;
        if (depth === 0) return k + 1;
      }
      k++;
    }
    return n;
  };
  while (i < n) {
    const c = text[i]!;
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i);
      const end = nl === -1 ? n : nl;
      blank(i, end);
      i = end;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const end = close === -1 ? n : close + 2;
      blank(i, end);
      i = end;
    } else if (c === '"') {
      const end = skipString(i);
      blank(i + 1, end - 1);
      i = end;
    } else if (c === "<" && text[i + 1] === "<") {
      const m = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/.exec(text.slice(i, i + 80));
      if (!m) {
        i++;
        continue;
      }
      let k = i + m[0].length;
      let end = n;
      while (k < n) {
        let nl = text.indexOf("\n", k);
        if (nl === -1) nl = n;
        if (text.slice(k, nl).replace(/\r$/, "").trim() === m[1]) {
          end = nl;
          break;
        }
        k = nl + 1;
      }
      blank(i, end);
      i = end;
    } else i++;
  }
  return out.join("");
}

// ---- the provider major version -----------------------------------------------------------------------

/**
 * The Cloudflare provider major version a configuration is written for: 3 (the legacy schema, ≤ 3.35; any
 * version below 4 counts as 3), 4, or 5 (5 and anything later), or null when nothing says.
 *
 * The locked version decides when there is one (it is what `terraform init` installed). Otherwise the
 * lowest version the constraints (ANDed) admit: `~> 4.52` → 4, `>= 3.0` → 3, `~> 5.8` → 5. With no
 * constraint at all, or constraints no version meets, the answer is null. A constraint or locked version
 * that does not parse is ignored (the gate reports it). The `plan` command uses this to pick the syntax of
 * the generated `cloudflare_ruleset` (blocks for 4, attributes for 5) unless `--provider-major` says.
 */
export function detectProviderMajor(input: { lockedVersion?: string | null; constraints?: readonly string[] }): 3 | 4 | 5 | null {
  if (input.lockedVersion) {
    try {
      return bucket(parseVersion(input.lockedVersion).major);
    } catch {
      // fall through to the constraints
    }
  }
  const constraints = (input.constraints ?? []).filter((c) => {
    if (c.trim() === "") return false;
    try {
      parseConstraint(c);
      return true;
    } catch {
      return false;
    }
  });
  if (constraints.length === 0 || !isSatisfiable(constraints)) return null;
  // The smallest major M whose versions (pre-releases included) below (M+1).0.0 already meet the constraints.
  const admitsBelow = (m: number) => isSatisfiable([...constraints, `< ${m + 1}.0.0-0`]);
  let hi = 1;
  while (!admitsBelow(hi)) {
    hi *= 2;
    if (hi > 1 << 30) return null;
  }
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (admitsBelow(mid)) hi = mid;
    else lo = mid + 1;
  }
  return bucket(lo);
}

function bucket(major: number): 3 | 4 | 5 {
  return major <= 3 ? 3 : major === 4 ? 4 : 5;
}

/** `detectProviderMajor` for one root: its lock, else its constraints. */
export function rootProviderMajor(root: RootProviders): 3 | 4 | 5 | null {
  return detectProviderMajor({ lockedVersion: root.lock?.version ?? null, constraints: root.requirements.map((r) => r.constraint) });
}

/** The provider major of a whole run: the roots' answers when they agree, else null (ask `--provider-major`). */
export function workspaceProviderMajor(info: ProviderInfo): 3 | 4 | 5 | null {
  const majors = new Set(info.roots.map(rootProviderMajor).filter((m): m is 3 | 4 | 5 => m !== null));
  return majors.size === 1 ? [...majors][0]! : null;
}

/**
 * `rulesetSyntaxMajor` of one root read on its own, for a report's import ids (scan, gate): its lock file's
 * version, else its own `required_providers` (`terraformBlocks`: the root directory's), 5 or else 4. A lock
 * file that cannot be read says nothing here (the gate reports it).
 */
export async function rootRulesetSyntaxMajor(dir: string, terraformBlocks: readonly TerraformBlock[]): Promise<4 | 5> {
  const lock = await readRootLock(dir, dir, []).catch(() => null);
  const constraints = terraformBlocks.flatMap((tb) => requiredProvidersBodies(tb).flatMap(cloudflareEntries)).map((e) => e.constraint);
  return detectProviderMajor({ lockedVersion: lock?.version ?? null, constraints }) === 5 ? 5 : 4;
}

/**
 * The ruleset syntax and import id form a plan writes: 5 when the lock or the constraints say provider 5,
 * else 4 (a 3.x workspace gets the provider-4 block syntax, which 3.35 reads too).
 */
export function rulesetSyntaxMajor(info: ProviderInfo): 4 | 5 {
  return workspaceProviderMajor(info) === 5 ? 5 : 4;
}

/** The locked Cloudflare provider versions of the run's roots. */
export function lockedVersions(info: ProviderInfo): string[] {
  return info.roots.map((r) => r.lock?.version).filter((v): v is string => !!v);
}

/** The first item by file, then line. */
export function firstInFileOrder<T extends { file: string; line: number }>(xs: readonly T[]): T | undefined {
  let first: T | undefined;
  for (const x of xs) if (first === undefined || compareText(x.file, first.file) < 0 || (compareText(x.file, first.file) === 0 && x.line < first.line)) first = x;
  return first;
}
