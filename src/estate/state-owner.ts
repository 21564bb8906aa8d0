// Which root (and which of its workspaces) each `--state` belongs to. A state names no directory, so its
// place on disk decides: the deepest root containing the file; `ROOT=FILE` says so explicitly, and is
// required for a state outside every root and for standard input when there are several roots. A state
// under `ROOT/terraform.tfstate.d/<ws>/` is workspace `<ws>` (where Terraform's local backend keeps it);
// anything else is `default`. Pure path arithmetic: nothing is read here.
import path from "node:path";
import type { InputError } from "../core/model.js";
import { DEFAULT_WORKSPACE, type EstateRoot } from "./instances.js";

export interface StateArg {
  /** The root as the user wrote it (`--state ROOT=FILE`), else null. */
  root: string | null;
  /** The file as the user wrote it (`-` for standard input). */
  file: string;
}

export interface StateOwner {
  root: EstateRoot;
  workspace: string;
}

/**
 * `FILE` or `ROOT=FILE`. A name that merely contains `=` (`a=b.tfstate`) is only split when the part before
 * it names a directory the caller knows as a root (`isRoot`), so existing paths keep working.
 */
export function parseStateArg(arg: string, isRoot: (root: string) => boolean): StateArg {
  const i = arg.indexOf("=");
  if (i > 0 && i < arg.length - 1) {
    const root = arg.slice(0, i);
    if (isRoot(root)) return { root, file: arg.slice(i + 1) };
  }
  return { root: null, file: arg };
}

/**
 * The owner of one state. `abs` is the file's absolute path (null for standard input); `explicit` the
 * root named with `ROOT=FILE`, already matched to a root. An input error names the fix.
 */
export function stateOwner(
  given: StateArg,
  abs: string | null,
  roots: EstateRoot[],
  explicit: EstateRoot | null,
): { ok: true; owner: StateOwner } | { ok: false; error: InputError } {
  const error = (message: string) => ({ ok: false as const, error: { file: given.file === "-" ? "<stdin>" : given.file, line: null, column: null, message } });
  let root = explicit;
  if (!root && abs !== null) root = deepestContaining(abs, roots);
  if (!root && roots.length === 1) root = roots[0]!;
  if (!root) {
    const list = roots.map((r) => r.path).join(", ");
    return error(
      abs === null
        ? `standard input with several root modules (${list}): say which root it belongs to with --state ROOT=-`
        : `this state is outside every root module (${list}): say which root it belongs to with --state ROOT=${given.file}`,
    );
  }
  return { ok: true, owner: { root, workspace: abs === null ? DEFAULT_WORKSPACE : workspaceOf(abs, root.dir) } };
}

/** `ROOT/terraform.tfstate.d/<ws>/…` → `<ws>`; anything else → `default`. */
export function workspaceOf(abs: string, rootDir: string): string {
  const rel = path.relative(rootDir, abs).split(path.sep);
  if (rel.length >= 3 && rel[0] === "terraform.tfstate.d" && rel[1] && rel[1] !== "..") return rel[1];
  return DEFAULT_WORKSPACE;
}

/**
 * The deepest root whose directory contains `abs`: walk up from the file's directory (a thousand roots
 * must not each be compared with a thousand states).
 */
function deepestContaining(abs: string, roots: EstateRoot[]): EstateRoot | null {
  const byDir = rootsByDir(roots);
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    const found = byDir.get(dir);
    if (found && (found.node || roots.length === 1)) return found;
    if (path.dirname(dir) === dir) return null;
  }
}

const dirIndex = new WeakMap<EstateRoot[], Map<string, EstateRoot>>();
function rootsByDir(roots: EstateRoot[]): Map<string, EstateRoot> {
  let m = dirIndex.get(roots);
  if (!m) dirIndex.set(roots, (m = new Map(roots.map((r) => [r.dir, r]))));
  return m;
}

/** The root a `ROOT=` prefix names: by path relative to the working directory, or to the report's base. */
export function rootNamed(name: string, roots: EstateRoot[], cwd: string, base: string): EstateRoot | null {
  const candidates = [path.resolve(cwd, name), path.resolve(base, name)];
  return roots.find((r) => r.node !== null && candidates.includes(r.dir)) ?? null;
}
