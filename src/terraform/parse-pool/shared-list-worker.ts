// The worker side of ./shared-list.ts: answers the jobs it is sent one at a time, in the order they come,
// each with its result as exact bytes (./clone.ts), or `again` when the job fails or its result has no exact
// copy (the main thread then does it, and meets the same failure there).
import { parentPort } from "node:worker_threads";
import { toBytes } from "./clone.js";
import type { SharedReply } from "./shared-list.js";

export function answerJobs<M extends { index: number }>(job: (message: M) => Promise<unknown>): void {
  let queue: Promise<void> = Promise.resolve();
  parentPort!.on("message", (m: M) => {
    queue = queue.then(() => answer(m, job));
  });
}

async function answer<M extends { index: number }>(m: M, job: (message: M) => Promise<unknown>): Promise<void> {
  let reply: SharedReply;
  try {
    const bytes = toBytes(await job(m));
    reply = bytes === null ? { index: m.index, kind: "again" } : { index: m.index, kind: "done", value: bytes };
  } catch {
    reply = { index: m.index, kind: "again" };
  }
  parentPort!.postMessage(reply);
}
