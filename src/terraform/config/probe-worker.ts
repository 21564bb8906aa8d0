// The worker of ./probe-pool.ts: reads the directories it is sent, one at a time, as the main thread would
// (`loadModuleDir` in the same mode), and sends each back as exact bytes with the size each file counted.
import { parentPort } from "node:worker_threads";
import { createJudge } from "../parse-pool/pool.js";
import { toBytes } from "../parse-pool/clone.js";
import { loadModuleDir } from "./load.js";
import type { ProbeReply, ProbeRequest } from "./probe-pool.js";

// hcl2json, if a block needs it, on this thread: a worker starts no workers of its own.
const judge = createJudge({ workers: 0 });

/** The tests' way to make the worker fail (CFWM_PROBE_WORKER_FAULT): `exit` ends the thread at its first directory. */
const FAULT = process.env.CFWM_PROBE_WORKER_FAULT;

let queue: Promise<void> = Promise.resolve();
parentPort!.on("message", (m: ProbeRequest) => {
  queue = queue.then(() => read(m));
});

async function read(m: ProbeRequest): Promise<void> {
  if (FAULT === "exit") process.exit(3);
  let reply: ProbeReply;
  try {
    const sizes: number[] = [];
    const module = await loadModuleDir(m.dir, m.files, { base: m.base, judge, mode: m.mode, onFile: (size) => sizes.push(size) });
    const bytes = toBytes(module);
    reply = bytes === null ? { index: m.index, kind: "again" } : { index: m.index, kind: "done", module: bytes, sizes };
  } catch {
    // The main thread reads it again, and meets (and reports) the same failure there.
    reply = { index: m.index, kind: "again" };
  }
  parentPort!.postMessage(reply);
}
