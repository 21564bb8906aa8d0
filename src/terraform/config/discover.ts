// Walks the given paths for Terraform configuration directories. Skips `.terraform/`, `.git/`,
// `node_modules/`, `.terragrunt-cache/` (terragrunt's working copies of each unit's module: a scan would
// read every module a second time as a root of its own, as terragrunt's own discovery, terraform-ls and
// tfsec also skip them) and the directories `plan --out-dir` wrote (read again, their ruleset.tf would be a
// root of its own); a directory given by name is read whatever it is. Follows symlinks once (a loop is
// reported, not followed), and reports every path it cannot read as an input error instead of stopping.
import { open, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { InputError } from "../../core/model.js";
import { ARTIFACTS, PLAN_CONFIG_FILES, PLAN_OUTPUT_MARK } from "../../core/artifacts.js";

export const SKIPPED_DIRS = new Set([".terraform", ".git", "node_modules", ".terragrunt-cache"]);


/**
 * A directory `plan --out-dir` wrote: PLAN.md, ruleset.tf and a migrate.sh that says it was generated here,
 * and no configuration file of anyone else. `--out-dir .` in a root module mixes them with the root's own
 * files: that directory is a root (terraform reads its ruleset.tf too) and is read.
 */
async function isPlanOutput(dir: string, names: string[]): Promise<boolean> {
  if (![ARTIFACTS.planMd, ARTIFACTS.ruleset, ARTIFACTS.script].every((n) => names.includes(n))) return false;
  if (names.some((n) => isConfigFile(n) && !PLAN_CONFIG_FILES.has(n))) return false;
  let handle;
  try {
    handle = await open(path.join(dir, ARTIFACTS.script), "r");
    const head = Buffer.alloc(256);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString("utf8").split("\n")[1]?.startsWith(PLAN_OUTPUT_MARK) === true;
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

export function isConfigFile(name: string): boolean {
  return name.endsWith(".tf") || name.endsWith(".tf.json");
}

export interface DiscoveredDir {
  /** Absolute path. */
  dir: string;
  /** Absolute paths of its configuration files, sorted. When a file was named directly, only those. */
  files: string[];
}

export interface Discovery {
  dirs: DiscoveredDir[];
  errors: InputError[];
}

export interface DiscoverOptions {
  /**
   * false: only the files of each directory given, as terraform reads a root module. A directory below it
   * is a root of its own, or a module read through a call (modules.ts follows calls whatever this says).
   */
  subdirectories?: boolean;
}

/**
 * `base` is the directory reported paths are relative to (see `reportBase`); `cwd` resolves the given paths.
 */
export async function discover(paths: string[], cwd: string, base: string = cwd, opts: DiscoverOptions = {}): Promise<Discovery> {
  const subdirectories = opts.subdirectories !== false;
  const byDir = new Map<string, Set<string>>();
  const errors: InputError[] = [];
  const seenReal = new Set<string>();

  const add = (file: string) => {
    const dir = path.dirname(file);
    let set = byDir.get(dir);
    if (!set) byDir.set(dir, (set = new Set()));
    set.add(file);
  };

  const shown = (abs: string) => {
    const rel = path.relative(base, abs).split(path.sep).join("/");
    return rel === "" ? "." : rel;
  };
  const walk = async (dir: string, given = false): Promise<void> => {
    const display = shown(dir);
    let real: string;
    try {
      real = await realpath(dir);
    } catch (e) {
      errors.push(fsError(display, e));
      return;
    }
    if (seenReal.has(real)) {
      // Either a symlink loop or two links to one tree: scanning it twice would duplicate every resource.
      errors.push({ file: display, line: null, column: null, message: `directory already scanned through another path (symlink loop?): ${shown(real)}` });
      return;
    }
    seenReal.add(real);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      errors.push(fsError(display, e));
      return;
    }
    // `plan --out-dir` inside the tree: its ruleset.tf and imports.tf would be read as a root of their own on
    // the next run (a second root, an estate layout). A directory given by name is read like any other.
    if (!given && (await isPlanOutput(dir, entries.map((e) => e.name)))) return;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const full = path.join(dir, ent.name);
      let isDir = ent.isDirectory();
      let isFile = ent.isFile();
      if (ent.isSymbolicLink()) {
        try {
          const st = await stat(full);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch (e) {
          errors.push(fsError(shown(full), e));
          continue;
        }
      }
      if (isDir) {
        if (subdirectories && !SKIPPED_DIRS.has(ent.name)) await walk(full);
      } else if (isFile && isConfigFile(ent.name)) add(full);
    }
  };

  for (const p of paths) {
    const abs = path.resolve(cwd, p);
    let st;
    try {
      st = await stat(abs);
    } catch (e) {
      errors.push(fsError(p, e));
      continue;
    }
    if (st.isDirectory()) await walk(abs, true);
    else if (st.isFile()) {
      if (isConfigFile(abs)) add(abs);
      else errors.push({ file: p, line: null, column: null, message: "not a Terraform configuration file (.tf or .tf.json)" });
    }
  }

  const dirs = [...byDir.entries()]
    .map(([dir, files]) => ({ dir, files: [...files].sort() }))
    .sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  return { dirs, errors };
}

export function fsError(file: string, e: unknown): InputError {
  const err = e as NodeJS.ErrnoException;
  const why =
    err.code === "ENOENT"
      ? "no such file or directory"
      : err.code === "EACCES" || err.code === "EPERM"
        ? "permission denied"
        : err.code === "ELOOP"
          ? "too many levels of symbolic links (symlink loop)"
          : err.code === "EISDIR"
            ? "is a directory"
            : (err.message ?? String(e));
  return { file, line: null, column: null, message: `cannot read: ${why}` };
}

/**
 * Reported file paths are relative to the one directory scanned (`scan infra/prod` reports `main.tf`,
 * `modules/waf/main.tf`), and to the working directory when several paths or files are given.
 */
export async function reportBase(paths: string[], cwd: string): Promise<string> {
  if (paths.length !== 1) return cwd;
  const abs = path.resolve(cwd, paths[0]!);
  try {
    return (await stat(abs)).isDirectory() ? abs : cwd;
  } catch {
    return cwd;
  }
}
