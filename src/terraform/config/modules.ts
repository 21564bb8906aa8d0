// Builds the module tree: which discovered directories are roots, and the module path (`module.a.module.b`)
// of every module instance reached through local module calls. Remote sources are recorded, not followed.
//
// By default a big tree is read selectively (see `LoadOptions.mode` in config.ts): a directory matters
// when one of its files may hold a Cloudflare resource, or when it calls (through local module sources,
// at any depth) a directory that matters. Directories that matter are read with `fast`; the others give
// only their module calls, which is all the tree needs from them. `fullParse` reads everything with
// hcl2json instead, as before.
import { statSync } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { InputError } from "../../core/model.js";
import { displayPath, isLocalSource, loadModuleDir, type LoadOptions, type ModuleCall, type ModuleDir } from "./load.js";
import { isConfigFile, type Discovery } from "./discover.js";
import { createJudge, type HclJudge } from "../parse-pool/pool.js";
import { readDirsShared } from "./probe-pool.js";
import { mapLimit } from "../../core/map-limit.js";

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
  /** Absolute directory of the root module whose tree reaches the call (estates split findings by root). */
  rootDir?: string;
}

export interface ConfigTree {
  roots: ModuleNode[];
  nodes: ModuleNode[];
  remoteModules: RemoteModule[];
  errors: InputError[];
  /**
   * `defer`: the directories that matter, read so far only for their module calls (`probe`); each is read
   * when a root that reaches it is built (config/deferred.ts). Absent: every directory is read.
   */
  deferred?: Map<string, DeferredDir>;
}

/** A directory whose read waits for its roots' turn. */
export interface DeferredDir {
  /** Its configuration files (a scanned directory); null: listed again when read (a module outside the paths). */
  files: string[] | null;
  /** Its errors are the run's (every scanned directory's are; a module outside the paths' once a root reaches it). */
  reported: boolean;
}

export interface Progress {
  filesDone: number;
  filesTotal: number;
  /** Characters read so far (UTF-16 code units; equal to bytes for ASCII files). */
  bytesDone: number;
}

export interface BuildOptions {
  /** Read every file and every block with hcl2json (slow on big trees; the reference behaviour). */
  fullParse?: boolean;
  /**
   * Only the tree's structure: every directory read for its module calls and the types and names of its
   * Cloudflare resources (load.ts mode `structure`), no bodies, variables or locals. For the searches of the repository
   * around a run (which roots call a module, which roots configure rules or legacy WAF), which load the few
   * roots that matter in full afterwards.
   */
  structureOnly?: boolean;
  /** hcl2json runner; by default one is created (workers for big workloads) and closed at the end. */
  judge?: HclJudge;
  /** Called after each file is read. `filesTotal` grows when module directories outside the scanned paths are found. */
  onProgress?: (p: Progress) => void;
  /**
   * Read the directories that matter only for their module calls now, and fully when their roots are built
   * (`ConfigTree.deferred`): the whole tree's configuration is never in memory at once. Not with `fullParse`.
   * `big`: only when the tree is big enough for that to matter (`smallTree`); `always`: whatever its size.
   */
  defer?: "big" | "always";
}

/**
 * A tree whose configuration files hold less than this is read at once, not deferred. On a 10-file, 200 KB
 * tree the probe parsed the files that matter a second time: ~10 ms of a ~155 ms scan (CPU profiles of ten
 * runs); holding a tree this small in memory is no concern.
 */
const DEFER_MIN_BYTES = 4_000_000;
/** Trees with more files than this are deferred without adding up their sizes. */
const DEFER_MIN_FILES = 256;

function smallTree(discovery: Discovery): boolean {
  let files = 0;
  let bytes = 0;
  for (const d of discovery.dirs) {
    for (const f of d.files) {
      if (++files > DEFER_MIN_FILES) return false;
      try {
        bytes += statSync(f).size;
      } catch {
        // Unreadable: its read reports it.
      }
      if (bytes >= DEFER_MIN_BYTES) return false;
    }
  }
  return true;
}

/** Module nesting deeper than this is a cycle in practice (a module that calls itself through a path). */
const MAX_DEPTH = 32;
/** Directories read at once: enough to keep hcl2json workers busy, few enough to bound memory. */
const DIRS_IN_FLIGHT = 4;

/** `base` is the directory reported file paths are relative to. */
export async function buildConfigTree(discovery: Discovery, base: string, opts: BuildOptions = {}): Promise<ConfigTree> {
  const ownJudge = !opts.judge;
  // A full parse sends every file to hcl2json: start the workers early.
  const judge = opts.judge ?? createJudge(opts.fullParse ? { poolAfterBytes: 256_000 } : {});
  try {
    return await build(discovery, base, opts, judge);
  } finally {
    if (ownJudge) await judge.close();
  }
}

async function build(discovery: Discovery, base: string, opts: BuildOptions, judge: HclJudge): Promise<ConfigTree> {
  const progress: Progress = { filesDone: 0, filesTotal: discovery.dirs.reduce((n, d) => n + d.files.length, 0), bytesDone: 0 };
  const load: Omit<LoadOptions, "mode"> = {
    base,
    judge,
    onFile: (size) => {
      progress.filesDone++;
      progress.bytesDone += size;
      opts.onProgress?.({ ...progress });
    },
  };
  // A structure-only read never defers: it reads no bodies to begin with. Nor does a small tree: its whole
  // configuration is small, and a deferred read parses the files that matter twice (the probe, then the read).
  const defer = opts.defer !== undefined && !opts.fullParse && !opts.structureOnly && (opts.defer === "always" || !smallTree(discovery));
  // How a directory is read when the tree reaches it; before the tree is built, a deferred read probes.
  const readMode = opts.fullParse ? "full" : opts.structureOnly ? "structure" : "auto";
  const firstMode = defer ? "probe" : readMode;

  const dirs = new Map<string, ModuleDir>();
  const deferred = new Map<string, DeferredDir>();
  // A read that hands no whole file to hcl2json is shared with a worker on a big tree (probe-pool.ts).
  const loaded =
    firstMode === "probe" || firstMode === "structure"
      ? (await readDirsShared(discovery.dirs, { ...load, mode: firstMode })).modules
      : await mapLimit(discovery.dirs, DIRS_IN_FLIGHT, (d) => loadModuleDir(d.dir, d.files, { ...load, mode: firstMode }));
  discovery.dirs.forEach((d, i) => dirs.set(d.dir, loaded[i]!));

  // Module directories outside the scanned paths, read on first use. Their errors are reported when the
  // tree reaches them, as a full parse does.
  const outside = new Map<string, ModuleDir | null>();
  const readOutside = async (dir: string, mode: "full" | "auto" | "fast" | "structure" | "probe", again = false): Promise<ModuleDir | null> => {
    let names: string[];
    try {
      names = (await readdir(dir)).filter(isConfigFile).sort();
    } catch {
      return null;
    }
    if (!again) progress.filesTotal += names.length;
    return loadModuleDir(dir, names.map((n) => path.join(dir, n)), { ...load, mode, ...(again ? { onFile: undefined } : {}) });
  };

  if (!opts.fullParse && !opts.structureOnly) {
    // Follow local module calls from every directory read so far, so that whether a directory matters
    // (it, or a module it calls at any depth, may hold Cloudflare resources) is known before the tree is built.
    const queue = [...dirs.values()];
    while (queue.length) {
      const mod = queue.shift()!;
      for (const target of localTargets(mod)) {
        if (dirs.has(target) || outside.has(target)) continue;
        const child = await readOutside(target, firstMode);
        outside.set(target, child);
        if (child) queue.push(child);
      }
    }
    const all = new Map<string, ModuleDir>([...dirs, ...[...outside].filter((e): e is [string, ModuleDir] => e[1] !== null)]);
    const matters = mattering(all);
    if (defer) {
      for (const dir of all.keys()) {
        if (matters.has(dir)) deferred.set(dir, { files: dirs.has(dir) ? discovery.dirs.find((d) => d.dir === dir)!.files : null, reported: dirs.has(dir) });
      }
    }
    // A directory that only calls modules that matter was read for its module calls alone: read it again
    // for its variables and locals, which resolve the values passed down.
    for (const [dir, mod] of defer ? [] : all) {
      if (!matters.has(dir) || mod.readAs !== "modules") continue;
      const files = dirs.has(dir) ? discovery.dirs.find((d) => d.dir === dir)!.files : null;
      const again = files ? await loadModuleDir(dir, files, { ...load, onFile: undefined, mode: "fast" }) : await readOutside(dir, "fast", true);
      if (!again) continue;
      if (dirs.has(dir)) dirs.set(dir, again);
      else outside.set(dir, again);
    }
  }

  const errors: InputError[] = [];
  // A deferred directory's errors come when it is read.
  for (const mod of dirs.values()) if (!deferred.has(mod.dir)) errors.push(...mod.errors);

  // A discovered directory called by another one is a module, not a root.
  const called = new Set<string>();
  for (const mod of dirs.values()) {
    for (const call of mod.moduleCalls) {
      if (call.source && isLocalSource(call.source)) called.add(path.resolve(mod.dir, call.source));
    }
  }
  const rootDirs = [...dirs.keys()].filter((d) => !called.has(d));

  const tree: ConfigTree = { roots: [], nodes: [], remoteModules: [], errors, ...(defer ? { deferred } : {}) };
  const reported = new Set<string>();
  const loadCalled = async (dir: string, call: ModuleCall): Promise<ModuleDir | null> => {
    const known = dirs.get(dir);
    if (known) return known;
    let mod = outside.get(dir);
    if (mod === undefined) {
      mod = await readOutside(dir, readMode);
      outside.set(dir, mod);
    }
    if (!mod) {
      errors.push({ file: call.file, line: call.line, column: null, message: `module ${JSON.stringify(call.name)}: source ${JSON.stringify(call.source)} not found (${displayPath(dir, base)})` });
      return null;
    }
    if (!reported.has(dir)) {
      reported.add(dir);
      const later = deferred.get(dir);
      if (later) later.reported = true;
      else errors.push(...mod.errors);
    }
    return mod;
  };

  const visit = async (node: ModuleNode, depth: number, stack: string[], installed: Map<string, string>): Promise<void> => {
    tree.nodes.push(node);
    for (const call of node.dir.moduleCalls) {
      const childPath = node.path ? `${node.path}.module.${call.name}` : `module.${call.name}`;
      if (!call.source) {
        errors.push({ file: call.file, line: call.line, column: null, message: `module ${JSON.stringify(call.name)} has no literal source` });
        continue;
      }
      let childDir: string;
      if (isLocalSource(call.source)) childDir = path.resolve(node.dir.dir, call.source);
      else {
        // A registry or git module is followed where `terraform init` installed it; otherwise only state sees it.
        const key = childPath.replace(/(^|\.)module\./g, "$1").replace(/^\./, "");
        const dir = installed.get(key);
        if (!dir) {
          tree.remoteModules.push({ path: childPath, source: call.source, file: call.file, line: call.line, rootDir: stack[0]! });
          continue;
        }
        childDir = dir;
      }
      if (stack.includes(childDir) || depth >= MAX_DEPTH) {
        errors.push({ file: call.file, line: call.line, column: null, message: `module ${JSON.stringify(call.name)} calls itself (module cycle through ${JSON.stringify(call.source)})` });
        continue;
      }
      const child = await loadCalled(childDir, call);
      if (!child) continue;
      await visit({ path: childPath, dir: child, call, parent: node }, depth + 1, [...stack, childDir], installed);
    }
  };

  for (const d of rootDirs) {
    const root: ModuleNode = { path: "", dir: dirs.get(d)!, call: null, parent: null };
    tree.roots.push(root);
    await visit(root, 0, [d], await installedModules(d));
  }
  return tree;
}

function localTargets(mod: ModuleDir): string[] {
  const out: string[] = [];
  for (const call of mod.moduleCalls) if (call.source && isLocalSource(call.source)) out.push(path.resolve(mod.dir, call.source));
  return out;
}

/** Directories that may hold Cloudflare resources, and every directory that calls one of them, at any depth. */
export function mattering(dirs: Map<string, ModuleDir>): Set<string> {
  const callers = new Map<string, string[]>();
  for (const [dir, mod] of dirs) {
    for (const target of localTargets(mod)) {
      const list = callers.get(target) ?? [];
      list.push(dir);
      callers.set(target, list);
    }
  }
  const out = new Set<string>();
  const queue = [...dirs].filter(([, m]) => (m.relevantChars ?? 0) > 0 || m.readAs === "full").map(([d]) => d);
  for (const d of queue) out.add(d);
  while (queue.length) {
    const d = queue.shift()!;
    for (const caller of callers.get(d) ?? []) {
      if (!out.has(caller)) {
        out.add(caller);
        queue.push(caller);
      }
    }
  }
  return out;
}

/**
 * Modules `terraform init` installed for a root: `.terraform/modules/modules.json` maps each call's key
 * (`waf`, `waf.inner`) to its directory, relative to the root. Absent or unreadable: no installed modules.
 */
export async function installedModules(rootDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let doc: { Modules?: { Key?: unknown; Dir?: unknown }[] };
  try {
    doc = JSON.parse(await readFile(path.join(rootDir, ".terraform", "modules", "modules.json"), "utf8"));
  } catch {
    return out;
  }
  for (const m of Array.isArray(doc?.Modules) ? doc.Modules : []) {
    if (typeof m?.Key !== "string" || m.Key === "" || typeof m.Dir !== "string") continue;
    const dir = path.resolve(rootDir, m.Dir);
    try {
      if ((await stat(dir)).isDirectory()) out.set(m.Key, dir);
    } catch {
      // listed but not on disk (a stale modules.json): not followed
    }
  }
  return out;
}
