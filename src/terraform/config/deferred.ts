// Reads the directories a streamed estate deferred (ConfigTree.deferred, modules.ts `defer`): each when the
// first root that reaches it is built, with `fast` as an eager read would have, and kept only while roots
// still to be built reach it (a module directory a thousand roots share is read once). A directory's errors
// are reported once, when it is first read; `finish` reads, for their errors alone, the ones no built root
// reached (other shards' roots), as the eager read reports every scanned directory's.
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { InputError } from "../../core/model.js";
import type { HclJudge } from "../parse-pool/pool.js";
import { isConfigFile } from "./discover.js";
import { loadModuleDir, type ModuleDir } from "./load.js";
import type { ConfigTree, DeferredDir, ModuleNode } from "./modules.js";

export class DeferredReader {
  private readonly kept = new Map<string, { mod: ModuleDir | null; users: number }>();
  private readonly users = new Map<string, number>();
  private readonly read = new Set<string>();

  /**
   * `subtrees`: every root still to be built (each counts once for each deferred directory it reaches).
   * `keepAll`: every directory read is kept until `drop` (a reader that is not told which roots come next).
   */
  constructor(
    private readonly deferred: Map<string, DeferredDir>,
    private readonly base: string,
    private readonly judge: HclJudge,
    subtrees: Iterable<ConfigTree>,
    private readonly keepAll = false,
  ) {
    for (const sub of subtrees) for (const dir of this.dirsOf(sub)) this.users.set(dir, (this.users.get(dir) ?? 0) + 1);
  }

  /** The root's subtree with its deferred directories read (the same nodes, paths and calls). */
  async expand(sub: ConfigTree, errors: InputError[]): Promise<ConfigTree> {
    if (this.dirsOf(sub).size === 0) return sub;
    const mapped = new Map<ModuleNode, ModuleNode>();
    for (const n of sub.nodes) {
      const dir = this.deferred.has(n.dir.dir) ? ((await this.get(n.dir.dir, errors)) ?? n.dir) : n.dir;
      // Nodes come parent first (the tree is walked depth first from each root).
      mapped.set(n, { path: n.path, dir, call: n.call, parent: n.parent ? (mapped.get(n.parent) ?? n.parent) : null });
    }
    return { ...sub, roots: sub.roots.map((r) => mapped.get(r) ?? r), nodes: sub.nodes.map((n) => mapped.get(n)!) };
  }

  /** A root is built: the directories only it still reached go. */
  release(sub: ConfigTree): void {
    for (const dir of this.dirsOf(sub)) {
      const left = (this.users.get(dir) ?? 1) - 1;
      this.users.set(dir, left);
      if (left <= 0) this.kept.delete(dir);
    }
  }

  /** Directories no root still to be built here reaches (a `keepAll` reader's): they go. */
  drop(dirs: Iterable<string>): void {
    for (const dir of dirs) this.kept.delete(dir);
  }

  /** The deferred directories this reader has read. */
  dirsRead(): string[] {
    return [...this.read];
  }

  /** Directories read elsewhere (by a worker): `finish` need not read them for their errors. */
  noteRead(dirs: Iterable<string>): void {
    for (const dir of dirs) this.read.add(dir);
  }

  /** Reads, for their errors, the deferred directories whose errors are the run's and that no root read. */
  async finish(errors: InputError[]): Promise<void> {
    for (const [dir, d] of this.deferred) {
      if (d.reported && !this.read.has(dir)) await this.get(dir, errors);
      this.kept.delete(dir);
    }
  }

  private dirsOf(sub: ConfigTree): Set<string> {
    return new Set(sub.nodes.map((n) => n.dir.dir).filter((d) => this.deferred.has(d)));
  }

  private async get(dir: string, errors: InputError[]): Promise<ModuleDir | null> {
    const known = this.kept.get(dir);
    if (known) return known.mod;
    const d = this.deferred.get(dir)!;
    let files = d.files;
    if (files === null) {
      try {
        files = (await readdir(dir)).filter(isConfigFile).sort().map((n) => path.join(dir, n));
      } catch {
        files = null;
      }
    }
    const mod = files === null ? null : await loadModuleDir(dir, files, { base: this.base, judge: this.judge, mode: "fast" });
    if (mod && !this.read.has(dir) && d.reported) errors.push(...mod.errors);
    this.read.add(dir);
    if (this.keepAll) this.kept.set(dir, { mod, users: 1 });
    else if ((this.users.get(dir) ?? 0) > 0) this.kept.set(dir, { mod, users: this.users.get(dir)! });
    return mod;
  }
}
