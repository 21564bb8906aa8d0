// The worker of ./probe-pool.ts: reads the directories it is sent, one at a time, as the main thread would
// (`loadModuleDir` in the same mode), and sends each back with the size each file counted.
import { createJudge } from "../parse-pool/pool.js";
import { answerJobs } from "../parse-pool/shared-list-worker.js";
import { loadModuleDir } from "./load.js";
import type { ProbeAnswer, ProbeRequest } from "./probe-pool.js";

// hcl2json, if a block needs it, on this thread: a worker starts no workers of its own.
const judge = createJudge({ workers: 0 });

/** The tests' way to make the worker fail (CFWM_PROBE_WORKER_FAULT): `exit` ends the thread at its first directory. */
const FAULT = process.env.CFWM_PROBE_WORKER_FAULT;

answerJobs(async (m: ProbeRequest): Promise<ProbeAnswer> => {
  if (FAULT === "exit") process.exit(3);
  const sizes: number[] = [];
  const module = await loadModuleDir(m.dir, m.files, { base: m.base, judge, mode: m.mode, onFile: (size) => sizes.push(size) });
  return { module, sizes };
});
