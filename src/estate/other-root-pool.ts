// The roots around a run, loaded on this thread and, when there are enough of them, on a worker thread too
// (./other-root-worker.ts, through terraform/parse-pool/shared-list.ts): each load is a root's configuration
// read and evaluated (~10 ms of CPU for a 200 KB root), and a monorepo can have hundreds whose files
// configure rules or legacy WAF. The rules come back in the order of `dirs`, whichever thread loaded them.
// Whether the worker starts is decided as for a scan's root workers (CFWM_ROOT_WORKERS: 0 none, more one;
// else one on two cores or more, for enough roots).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ResourceRef } from "../core/model.js";
import type { OtherRootRules } from "../core/other-root-bypasses.js";
import { shareWithWorker } from "../terraform/parse-pool/shared-list.js";
import { rulesOfRoot, type RunPaths } from "./other-root-load.js";
import { rootWorkerCount } from "./parallel/pool.js";

/** Roots below which no worker starts: its start-up (~0.1 s of CPU) is about ten roots' loads. */
export const OTHER_ROOT_WORKER_MIN_ROOTS = 24;

/** One root for the worker (the run's paths are its workerData). */
export interface OtherRootJob {
  index: number;
  dir: string;
  declared: ResourceRef[];
}

export interface OtherRootsLoaded {
  /** In `dirs`' order. */
  roots: OtherRootRules[];
  /** How many of them the worker loaded. */
  byWorker: number;
}

export async function loadOtherRoots(dirs: readonly string[], where: RunPaths, declared: ReadonlyMap<string, ResourceRef[]>, env: NodeJS.ProcessEnv = process.env): Promise<OtherRootsLoaded> {
  const workerFile = fileURLToPath(new URL("./other-root-worker.js", import.meta.url));
  // Running from the TypeScript sources (tests) there is no compiled worker: everything stays here.
  const start = dirs.length >= 2 && existsSync(workerFile) && rootWorkerCount(undefined, () => dirs.length >= OTHER_ROOT_WORKER_MIN_ROOTS, env) > 0;
  const { results, byWorker } = await shareWithWorker<OtherRootRules>(dirs.length, {
    here: (i) => rulesOfRoot(dirs[i]!, where, declared.get(dirs[i]!)),
    message: (i): OtherRootJob => ({ index: i, dir: dirs[i]!, declared: declared.get(dirs[i]!) ?? [] }),
    startWorker: () => (start ? { file: workerFile, workerData: where } : null),
  });
  return { roots: results, byWorker };
}
