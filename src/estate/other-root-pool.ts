// The roots around a run, loaded on this thread and, when there are enough of them, on a worker thread too
// (./other-root-worker.ts): each load is a root's configuration read and evaluated (~10 ms of CPU for a
// 200 KB root), and a monorepo can have hundreds whose files configure rules or legacy WAF. The rules come
// back in the order of `dirs`, whichever thread loaded them. Whether the worker starts is decided as for a
// scan's root workers (CFWM_ROOT_WORKERS: 0 none, more one; else one on two cores or more, for enough roots).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import type { ResourceRef } from "../core/model.js";
import type { OtherRootRules } from "../core/other-root-bypasses.js";
import { fromBytes } from "../terraform/parse-pool/clone.js";
import { rulesOfRoot, type RunPaths } from "./other-root-load.js";
import { rootWorkerCount } from "./parallel/pool.js";

/** Roots below which no worker starts: its start-up (~0.1 s of CPU) is about ten roots' loads. */
export const OTHER_ROOT_WORKER_MIN_ROOTS = 24;
/** Jobs waiting in the worker, so that it never waits for this thread to finish a load of its own. */
const IN_FLIGHT = 2;

export interface OtherRootJob {
  index: number;
  dir: string;
  declared: ResourceRef[];
}

export type OtherRootReply =
  | { index: number; kind: "done"; rules: Uint8Array }
  /** Not loaded there (an error, or rules without an exact copy): this thread loads the root itself. */
  | { index: number; kind: "again" };

/** `counts.byWorker`, when given, is set to the number of roots the worker loaded. */
export async function loadOtherRoots(
  dirs: readonly string[],
  where: RunPaths,
  declared: ReadonlyMap<string, ResourceRef[]>,
  env: NodeJS.ProcessEnv = process.env,
  counts: { byWorker: number } = { byWorker: 0 },
): Promise<OtherRootRules[]> {
  const out: OtherRootRules[] = new Array(dirs.length);
  const here = async (i: number) => {
    out[i] = await rulesOfRoot(dirs[i]!, where, declared.get(dirs[i]!));
  };
  const worker = await startWorker(dirs.length, where, env);
  if (!worker) {
    for (let i = 0; i < dirs.length; i++) await here(i);
    return out;
  }
  let next = 0;
  let alive = true;
  const inFlight = new Set<number>();
  const again: number[] = [];
  let settled: () => void = () => undefined;
  const drained = new Promise<void>((resolve) => (settled = resolve));
  const settleIfIdle = () => {
    if (inFlight.size === 0 && (next >= dirs.length || !alive)) settled();
  };
  const send = () => {
    while (alive && inFlight.size < IN_FLIGHT && next < dirs.length) {
      const index = next++;
      inFlight.add(index);
      worker.postMessage({ index, dir: dirs[index]!, declared: declared.get(dirs[index]!) ?? [] } satisfies OtherRootJob);
    }
  };
  const lost = () => {
    // The worker is gone: what it held is loaded here.
    alive = false;
    again.push(...inFlight);
    inFlight.clear();
    settleIfIdle();
  };
  worker.on("message", (reply: OtherRootReply) => {
    inFlight.delete(reply.index);
    if (reply.kind === "done") {
      out[reply.index] = fromBytes<OtherRootRules>(Buffer.from(reply.rules));
      counts.byWorker++;
    } else again.push(reply.index);
    send();
    settleIfIdle();
  });
  worker.on("error", lost);
  worker.on("exit", lost);
  try {
    send();
    // This thread takes the next root whenever the worker has its jobs waiting; the worker's answers come in
    // while a load here waits on the file system, and each answer sends it the next root.
    while (next < dirs.length) await here(next++);
    settleIfIdle();
    await drained;
    for (const i of again.sort((a, b) => a - b)) await here(i);
    return out;
  } finally {
    worker.removeAllListeners("exit");
    await worker.terminate();
  }
}

async function startWorker(roots: number, where: RunPaths, env: NodeJS.ProcessEnv): Promise<Worker | null> {
  const count = rootWorkerCount(undefined, () => roots >= OTHER_ROOT_WORKER_MIN_ROOTS, env);
  const workerFile = fileURLToPath(new URL("./other-root-worker.js", import.meta.url));
  // Running from the TypeScript sources (tests) there is no compiled worker: everything stays here.
  if (count === 0 || roots < 2 || !existsSync(workerFile)) return null;
  const { Worker } = await import("node:worker_threads");
  return new Worker(workerFile, { workerData: where });
}
