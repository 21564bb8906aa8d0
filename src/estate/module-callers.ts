// Which other root modules call a module directory: a block deleted from that module disappears for every
// state those roots hold. Read-only: it reads the configuration of the repository around the root, only as
// far as the module calls go (no variables, states, inventories or analysis: a plan for one root in a big
// repository must not pay for a scan of every other root).
import { existsSync } from "node:fs";
import path from "node:path";
import { repositoryTreeReader, type RepositoryTree } from "./repository-tree.js";
import { rootNodeOf } from "./instances.js";

/**
 * Other root modules that call a module living in one of `moduleDirs`, found in the repository that holds
 * the root (the nearest ancestor with `.git`), else under the closest directory holding the root and every
 * module directory. Returns caller root directory (absolute) → the module directories it calls.
 */
export async function callersOf(chdir: string, moduleDirs: string[], repositoryTree: RepositoryTree = repositoryTreeReader()): Promise<Map<string, Set<string>>> {
  const top = searchTop(chdir, moduleDirs);
  // What cannot be read here is the other roots' business: their own plans report it.
  const tree = await repositoryTree(top);
  const wanted = new Set(moduleDirs.map((d) => path.resolve(d)));
  const self = path.resolve(chdir);
  const callers = new Map<string, Set<string>>();
  for (const node of tree.nodes) {
    const dir = path.resolve(node.dir.dir);
    if (!wanted.has(dir)) continue;
    const rootDir = rootNodeOf(node).dir.dir;
    if (path.resolve(rootDir) === self) continue;
    let called = callers.get(rootDir);
    if (!called) callers.set(rootDir, (called = new Set()));
    called.add(dir);
  }
  return callers;
}

/**
 * Where other roots of the repository around `dir` are looked for: the nearest ancestor with `.git`, else the
 * closest directory holding `dir` and every one of `dirs`.
 */
export function searchTop(dir: string, dirs: readonly string[]): string {
  return repositoryTop(dir) ?? commonAncestor([dir, ...dirs]);
}

function repositoryTop(dir: string): string | null {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, ".git"))) return d;
    if (path.dirname(d) === d) return null;
  }
}

function commonAncestor(dirs: string[]): string {
  const split = dirs.map((d) => path.resolve(d).split(path.sep));
  const out: string[] = [];
  for (let i = 0; split.every((s) => i < s.length && s[i] === split[0]![i]); i++) out.push(split[0]![i]!);
  return out.join(path.sep) || path.sep;
}
