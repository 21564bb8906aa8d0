// A worker loading roots around a run (./other-root-pool.ts): each job is one root, answered with its
// rules as bytes (parse-pool/clone.ts), or with its error's message (the main thread then loads it itself,
// and meets the error there). Jobs run one at a time, in the order they come.
import { parentPort, workerData } from "node:worker_threads";
import { toBytes } from "../terraform/parse-pool/clone.js";
import { rulesOfRoot, type RunPaths } from "./other-root-load.js";
import type { OtherRootJob, OtherRootReply } from "./other-root-pool.js";

const where = workerData as RunPaths;
let queue: Promise<void> = Promise.resolve();
parentPort!.on("message", (job: OtherRootJob) => {
  queue = queue.then(() => answer(job));
});

async function answer(job: OtherRootJob): Promise<void> {
  let reply: OtherRootReply;
  try {
    const bytes = toBytes(await rulesOfRoot(job.dir, where, job.declared));
    reply = bytes === null ? { index: job.index, kind: "again" } : { index: job.index, kind: "done", rules: bytes };
  } catch {
    reply = { index: job.index, kind: "again" };
  }
  parentPort!.postMessage(reply);
}
