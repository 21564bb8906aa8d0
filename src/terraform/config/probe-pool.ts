// The first read of a big tree's directories, shared between this thread and one worker (issue #17). Before
// the module tree exists every discovered directory is read for its module calls (modules.ts, modes
// `probe` and `structure`): on a monorepo of 10,000 files that read was most of the scan, on one
// thread while the other core waited. Here this thread reads directories in order and, once it has read
// enough to be worth a worker's start-up, a worker (./probe-worker.ts) takes directories from the same list.
// Each directory's result comes back to its place: the tree and the report do not depend on who read what.
// A worker that fails, or a result that cannot cross exactly, is read again here (parse-pool/shared-list.ts).
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { shareWithWorker } from "../parse-pool/shared-list.js";
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

/** One directory for the worker. */
export interface ProbeRequest {
  index: number;
  dir: string;
  files: string[];
  base: string;
  mode: SharedMode;
}

/** The worker's answer: the directory, and what each file read counted. */
export interface ProbeAnswer {
  module: ModuleDir;
  sizes: number[];
}

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
  const choice = env[PROBE_WORKER_ENV]?.trim();
  const workerFile = fileURLToPath(new URL("./probe-worker.js", import.meta.url));
  // Running from the TypeScript sources (tests) there is no compiled worker; one core: nothing to share.
  const may = choice !== "0" && existsSync(workerFile) && (choice === "1" || availableParallelism() > 1);
  let chars = 0;
  const { results, byWorker } = await shareWithWorker<ModuleDir, ProbeAnswer>(dirs.length, {
    here: (i) =>
      loadModuleDir(dirs[i]!.dir, dirs[i]!.files, {
        ...opts,
        onFile: (size) => {
          chars += size;
          opts.onFile?.(size);
        },
      }),
    message: (i): ProbeRequest => ({ index: i, dir: dirs[i]!.dir, files: dirs[i]!.files, base: opts.base, mode: opts.mode }),
    startWorker: (next) => (may && (choice === "1" || (chars >= START_AFTER_CHARS && dirs.length - next >= MIN_DIRS_LEFT)) ? { file: workerFile } : null),
    fromWorker: (_i, answer) => {
      for (const s of answer.sizes) opts.onFile?.(s);
      return answer.module;
    },
  });
  return { modules: results, byWorker };
}
