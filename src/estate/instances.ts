// The roots of an estate and the part of the configuration tree each one owns. A root is a directory with
// configuration files that no other scanned directory calls as a local module (modules.ts decides that);
// `examples/basic` calling `../../` is a root, the module it calls is not. Each root is its own namespace:
// two roots calling one module have identical addresses that must never be joined.
import path from "node:path";
import type { ConfigTree, ModuleNode } from "../terraform/config/modules.js";

export interface EstateRoot {
  /** Path relative to the report's base, with forward slashes ("." for the base itself). */
  path: string;
  /** Absolute directory. */
  dir: string;
  /** The root's node in the tree; null for the stand-in root of a run without configuration (state only). */
  node: ModuleNode | null;
}

/** Workspace name of a state outside `terraform.tfstate.d/` (and of a root without state). */
export { DEFAULT_WORKSPACE } from "../core/workspace-ruleset.js";

export function rootPath(dir: string, base: string): string {
  const rel = path.relative(base, dir).split(path.sep).join("/");
  return rel === "" ? "." : rel;
}

/**
 * The roots of the tree in path order. A run that found no configuration at all (a state-only scan) has
 * one stand-in root, the base directory, so that its states still form one instance.
 */
export function estateRoots(tree: ConfigTree, base: string): EstateRoot[] {
  if (tree.roots.length === 0) return [{ path: ".", dir: base, node: null }];
  return tree.roots
    .map((node) => ({ path: rootPath(node.dir.dir, base), dir: node.dir.dir, node }))
    .sort((a, b) => comparePaths(a.path, b.path));
}

/** Path order: "." first, then segment by segment (`live/prod` before `live/prod-eu` before `live/staging`). */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  if (a === ".") return -1;
  if (b === ".") return 1;
  const as = a.split("/");
  const bs = b.split("/");
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] !== bs[i]) return as[i]! < bs[i]! ? -1 : 1;
  }
  return as.length - bs.length;
}

/**
 * The tree of each root alone: its node and every module node reached from it. Module directories are
 * shared objects (parsed once for all roots); only the nodes, which carry the module path, are per root.
 * Grouped in one pass: a thousand roots must not each walk the whole tree.
 */
export function subtrees(tree: ConfigTree, roots: EstateRoot[]): Map<EstateRoot, ConfigTree> {
  const out = new Map<EstateRoot, ConfigTree>();
  if (tree.roots.length <= 1) {
    for (const r of roots) out.set(r, { ...tree, errors: [] });
    return out;
  }
  const byNode = new Map<ModuleNode, ConfigTree>();
  for (const r of roots) {
    const sub: ConfigTree = { roots: r.node ? [r.node] : [], nodes: [], remoteModules: [], errors: [] };
    out.set(r, sub);
    if (r.node) byNode.set(r.node, sub);
  }
  const byDir = new Map(roots.map((r) => [r.dir, out.get(r)!]));
  for (const n of tree.nodes) byNode.get(rootNodeOf(n))?.nodes.push(n);
  for (const m of tree.remoteModules) if (m.rootDir) byDir.get(m.rootDir)?.remoteModules.push(m);
  return out;
}

/** The root module node a module node was reached from. */
export function rootNodeOf(n: ModuleNode): ModuleNode {
  let r = n;
  while (r.parent) r = r.parent;
  return r;
}
