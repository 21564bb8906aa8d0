// Which other root modules call a module directory: a block deleted from that module disappears for every
// state those roots hold. Read-only: it loads the configuration of the repository around the root.
import { existsSync } from "node:fs";
import path from "node:path";
import { loadEstate } from "./load.js";

/**
 * Other root modules that call a module living in one of `moduleDirs`, found in the repository that holds
 * the root (the nearest ancestor with `.git`), else under the closest directory holding the root and every
 * module directory. Returns caller root directory (absolute) → the module directories it calls.
 */
export async function callersOf(chdir: string, moduleDirs: string[]): Promise<Map<string, Set<string>>> {
  const top = repositoryTop(chdir) ?? commonAncestor([chdir, ...moduleDirs]);
  const estate = await loadEstate({ paths: [top], statePaths: [], cwd: top, readStdin: async () => Buffer.alloc(0) });
  const wanted = new Set(moduleDirs.map((d) => path.resolve(d)));
  const callers = new Map<string, Set<string>>();
  for (const instance of estate.instances) {
    if (path.resolve(instance.dir) === path.resolve(chdir)) continue;
    const called = instance.ws.tree.nodes.map((n) => path.resolve(n.dir.dir)).filter((d) => wanted.has(d));
    if (called.length) callers.set(instance.dir, new Set([...(callers.get(instance.dir) ?? []), ...called]));
  }
  return callers;
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
