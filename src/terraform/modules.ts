// Builds the module tree: which discovered directories are roots, and the module path (`module.a.module.b`)
// of every module instance reached through local module calls. Remote sources are recorded, not followed.
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { InputError } from "../core/model.js";
import { displayPath, isLocalSource, loadModuleDir, type ModuleCall, type ModuleDir } from "./config.js";
import { isConfigFile, type Discovery } from "./discover.js";

export interface ModuleNode {
  /** Config module path without instance keys: "" for a root, `module.waf`, `module.a.module.b`. */
  path: string;
  dir: ModuleDir;
  call: ModuleCall | null;
  parent: ModuleNode | null;
}

export interface RemoteModule {
  /** Config path of the module call (`module.waf`). */
  path: string;
  source: string;
  file: string;
  line: number;
}

export interface ConfigTree {
  roots: ModuleNode[];
  nodes: ModuleNode[];
  remoteModules: RemoteModule[];
  errors: InputError[];
}

/** Module nesting deeper than this is a cycle in practice (a module that calls itself through a path). */
const MAX_DEPTH = 32;

/** `base` is the directory reported file paths are relative to. */
export async function buildConfigTree(discovery: Discovery, base: string): Promise<ConfigTree> {
  const dirs = new Map<string, ModuleDir>();
  const errors: InputError[] = [];
  for (const d of discovery.dirs) {
    const mod = await loadModuleDir(d.dir, d.files, { base });
    dirs.set(d.dir, mod);
    errors.push(...mod.errors);
  }

  // A discovered directory called by another one is a module, not a root.
  const called = new Set<string>();
  for (const mod of dirs.values()) {
    for (const call of mod.moduleCalls) {
      if (call.source && isLocalSource(call.source)) called.add(path.resolve(mod.dir, call.source));
    }
  }
  const rootDirs = [...dirs.keys()].filter((d) => !called.has(d));

  const tree: ConfigTree = { roots: [], nodes: [], remoteModules: [], errors };
  const loadCalled = async (dir: string, call: ModuleCall): Promise<ModuleDir | null> => {
    const known = dirs.get(dir);
    if (known) return known;
    let names: string[];
    try {
      names = (await readdir(dir)).filter(isConfigFile).sort();
    } catch {
      errors.push({ file: call.file, line: call.line, column: null, message: `module "${call.name}": source ${call.source} not found (${displayPath(dir, base)})` });
      return null;
    }
    const mod = await loadModuleDir(dir, names.map((n) => path.join(dir, n)), { base });
    dirs.set(dir, mod);
    errors.push(...mod.errors);
    return mod;
  };

  const visit = async (node: ModuleNode, depth: number, stack: string[]): Promise<void> => {
    tree.nodes.push(node);
    for (const call of node.dir.moduleCalls) {
      const childPath = node.path ? `${node.path}.module.${call.name}` : `module.${call.name}`;
      if (!call.source) {
        errors.push({ file: call.file, line: call.line, column: null, message: `module "${call.name}" has no literal source` });
        continue;
      }
      if (!isLocalSource(call.source)) {
        tree.remoteModules.push({ path: childPath, source: call.source, file: call.file, line: call.line });
        continue;
      }
      const childDir = path.resolve(node.dir.dir, call.source);
      if (stack.includes(childDir) || depth >= MAX_DEPTH) {
        errors.push({ file: call.file, line: call.line, column: null, message: `module "${call.name}" calls itself (module cycle through ${call.source})` });
        continue;
      }
      const child = await loadCalled(childDir, call);
      if (!child) continue;
      await visit({ path: childPath, dir: child, call, parent: node }, depth + 1, [...stack, childDir]);
    }
  };

  for (const d of rootDirs) {
    const root: ModuleNode = { path: "", dir: dirs.get(d)!, call: null, parent: null };
    tree.roots.push(root);
    await visit(root, 0, [d]);
  }
  return tree;
}
