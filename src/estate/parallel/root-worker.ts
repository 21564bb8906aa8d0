// A root worker: builds the instances it is sent (an instance without state: its root's subtree, its
// deferred directories read here, its variable files read here), analyses each and writes its share of the
// report to its own record files in the run's spill directory (spill/instance.ts), and sends back what the
// cross-instance steps need. Jobs run one at a time, in the order they come.
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type { InputError } from "../../core/model.js";
import { UserInputError } from "../../core/user-input-error.js";
import { DeferredReader } from "../../terraform/config/deferred.js";
import { loadRootVariables } from "../../terraform/config/tfvars.js";
import { createJudge } from "../../terraform/parse-pool/pool.js";
import { buildOffloaded, type OffloadJob } from "../load.js";
import { gateShareOf } from "../gate-share.js";
import { fromBytes, toBytes } from "../../terraform/parse-pool/clone.js";
import { spillInstance, type SpillFiles } from "../spill/instance.js";
import { RecordFile } from "../spill/records.js";
import { workerFiles, type JobMessage, type JobReply, type JobResult, type WorkerData, type WorkerInit } from "./messages.js";

const data = workerData as WorkerData;
const init = fromBytes<WorkerInit>(Buffer.from(data.init));
// hcl2json on this thread: a worker starts no workers of its own.
const judge = createJudge({ workers: 0 });
const reader = new DeferredReader(new Map(init.deferred), init.base, judge, [], true);
const names = workerFiles(data.id);
const files: SpillFiles = {
  resources: new RecordFile(path.join(init.dir, names.resources)),
  zones: new RecordFile(path.join(init.dir, names.zones)),
  findings: new RecordFile(path.join(init.dir, names.findings)),
  inventories: new RecordFile(path.join(init.dir, names.inventories)),
};

/** The deferred directories already named to the main thread as read. */
const announced = new Set<string>();
let queue: Promise<void> = Promise.resolve();
parentPort!.on("message", (m: JobMessage) => {
  queue = queue.then(() => run(m));
});

async function run(m: JobMessage): Promise<void> {
  let reply: JobReply;
  try {
    reply = await build(m);
  } catch (e) {
    const message = String((e as Error)?.message ?? e).replace(/\s*\n\s*/g, " ");
    reply = { index: m.index, kind: "error", message, ...(e instanceof UserInputError ? { exitCode: e.exitCode } : {}) };
  }
  reader.drop(m.release);
  parentPort!.postMessage(reply);
}

/**
 * The tests' way to make a worker fail (CFWM_ROOT_WORKER_FAULT): `throw` (its job throws), `exit` (the
 * thread ends mid-job) or `hang` (its job never ends: what SIGINT must still clean up after).
 */
const FAULT = process.env.CFWM_ROOT_WORKER_FAULT;

async function build(m: JobMessage): Promise<JobReply> {
  if (FAULT === "throw") throw new Error("root worker fault injected\nsecond line");
  if (FAULT === "exit") process.exit(3);
  if (FAULT === "hang") await new Promise(() => setInterval(() => undefined, 1000));
  const job = fromBytes<OffloadJob>(Buffer.from(m.job));
  const errors: InputError[] = [];
  // The variable files' errors were reported by the main thread when it opened the estate.
  const variables = await loadRootVariables([job.root.dir], init.variables, init.cwd, init.base, []);
  const instance = await buildOffloaded(job, init.base, reader, variables, errors);
  const spilled = spillInstance(instance, init.analyze, files);
  for (const f of Object.values(files)) f.flush();
  if (spilled.inventories.some((s) => s === null)) return { index: m.index, kind: "fallback" };
  const gate = init.gateShares ? gateShareOf(instance, spilled.analysed) : undefined;
  for (const z of spilled.analysed.instance.analysis.zones) (z as { inventory: unknown }).inventory = null;
  const read = reader.dirsRead().filter((d) => !announced.has(d));
  for (const d of read) announced.add(d);
  const result: JobResult = { spilled, errors, read, ...(gate ? { gate } : {}) };
  const bytes = toBytes(result);
  return bytes === null ? { index: m.index, kind: "fallback" } : { index: m.index, kind: "done", result: bytes };
}
