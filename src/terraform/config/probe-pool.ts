// The first read of a big tree's directories, shared between this thread and one worker (issue #17). Before
// the module tree exists every discovered directory is read for its module calls (modules.ts, modes
// `probe` and `structure`): on a monorepo of 10,000 files that read was most of the scan, on one
// thread while the other core waited. Here this thread reads directories in order and, once it has read
// enough to be worth a worker's start-up, a worker (./probe-worker.ts) takes directories from the same list.
// Each directory's result comes back to its place: the tree and the report do not depend on who read what.
// A worker that fails, or a result that cannot cross exactly, is read again here.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { fromBytes } from "../parse-pool/clone.js";
import type { DiscoveredDir } from "./discover.js";
import { loadModuleDir, type LoadOptions, type ModuleDir } from "./load.js";

/** The read modes a worker may take: none hands whole files to hcl2json (the worker has no pool of its own). */
export type SharedMode = "probe" | "structure";

/**
 * `CFWM_PROBE_WORKER`: `0` never starts the worker, `1` starts it before the first directory (the tests'
 * way to use it on small trees); unset, it starts by the rule below.
 */
export const PROBE_WORKER_ENV = "CFWM_PROBE_WORKER";

/**
 * Characters read on this thread before the worker starts, when enough directories are left. A worker's
 * start-up (~0.1 s of CPU: it compiles its own code) pays back after ~3 MB of such reads (~30 MB/s per thread
 * on the 200 MB monorepo bench tree); small trees never start it.
 */
const START_AFTER_CHARS = 4_000_000;
const MIN_DIRS_LEFT = 32;
/** Directories sent to the worker before its answers come: one read there, the next waiting. */
const IN_FLIGHT = 2;

/** One directory for the worker. */
export interface ProbeRequest {
  index: number;
  dir: string;
  files: string[];
  base: string;
  mode: SharedMode;
}

export type ProbeReply =
  /** `module` is the ModuleDir as parse-pool/clone.ts bytes; `sizes` what each file read counted. */
  | { index: number; kind: "done"; module: Uint8Array; sizes: number[] }
  /** The worker could not give this one exactly: read it here. */
  | { index: number; kind: "again" };

export interface SharedRead {
  /** In `dirs`' order. */
  modules: ModuleDir[];
  /** How many of them the worker read. */
  byWorker: number;
}

/**
 * Reads `dirs` (as `loadModuleDir` would, one after the other) with `opts`, sharing them with a worker when
 * the tree is big enough.
 */
export async function readDirsShared(dirs: DiscoveredDir[], opts: LoadOptions & { mode: SharedMode }, env: NodeJS.ProcessEnv = process.env): Promise<SharedRead> {
  const out = new Array<ModuleDir>(dirs.length);
  const choice = env[PROBE_WORKER_ENV]?.trim();
  const workerFile = fileURLToPath(new URL("./probe-worker.js", import.meta.url));
  // Running from the TypeScript sources (tests) there is no compiled worker; one core: nothing to share.
  const may = choice !== "0" && existsSync(workerFile) && (choice === "1" || availableParallelism() > 1);
  let chars = 0;
  let next = 0;
  let byWorker = 0;
  let helper: ProbeWorker | null = null;
  const local = async (i: number) => {
    const d = dirs[i]!;
    out[i] = await loadModuleDir(d.dir, d.files, {
      ...opts,
      onFile: (size) => {
        chars += size;
        opts.onFile?.(size);
      },
    });
  };
  const onWorker: Promise<void>[] = [];
  const feed = () => {
    while (helper && !helper.failed && helper.busy < IN_FLIGHT && next < dirs.length) {
      const i = next++;
      const d = dirs[i]!;
      const read = helper.read({ index: i, dir: d.dir, files: d.files, base: opts.base, mode: opts.mode }).then(async (r) => {
        if (r === null) return local(i);
        out[i] = r.module;
        byWorker++;
        for (const s of r.sizes) opts.onFile?.(s);
        feed();
      });
      // Awaited with the others below; when a read here fails first, this one's failure must not go unhandled.
      read.catch(() => undefined);
      onWorker.push(read);
    }
  };
  try {
    while (next < dirs.length) {
      if (!helper && may && (choice === "1" || (chars >= START_AFTER_CHARS && dirs.length - next >= MIN_DIRS_LEFT))) {
        helper = new ProbeWorker(workerFile);
        feed();
      }
      if (next >= dirs.length) break;
      await local(next++);
      // The worker's answers are events: let them in between two directories read here, so it gets its next one.
      if (helper) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(onWorker);
  } finally {
    await helper?.close();
  }
  return { modules: out, byWorker };
}

/** The worker and the directories it holds; a result it cannot give is `null` (read it here). */
class ProbeWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (r: { module: ModuleDir; sizes: number[] } | null) => void>();
  failed = false;

  constructor(file: string, WorkerThread: typeof Worker = requireWorker()) {
    this.worker = new WorkerThread(file);
    this.worker.on("message", (m: ProbeReply) => {
      const done = this.waiting.get(m.index);
      if (!done) return;
      this.waiting.delete(m.index);
      if (m.kind === "again") return done(null);
      let module: ModuleDir;
      try {
        module = fromBytes<ModuleDir>(Buffer.from(m.module));
      } catch {
        return done(null);
      }
      done({ module, sizes: m.sizes });
    });
    // A worker that dies hands back what it held: this thread reads those directories itself.
    const fail = () => {
      this.failed = true;
      for (const done of this.waiting.values()) done(null);
      this.waiting.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", fail);
  }

  get busy(): number {
    return this.waiting.size;
  }

  read(request: ProbeRequest): Promise<{ module: ModuleDir; sizes: number[] } | null> {
    if (this.failed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting.set(request.index, resolve);
      this.worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.failed = true;
    await this.worker.terminate();
  }
}

// worker_threads is loaded only when the worker starts: most runs never start one.
function requireWorker(): typeof Worker {
  return (createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads")).Worker;
}
