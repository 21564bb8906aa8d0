// What the root workers (estate/parallel/root-worker.ts) and the thread that starts them (./pool.ts) send
// each other. Values go as spill/clone.ts bytes (exact: records without a prototype stay so). No state and
// no variable value is ever sent: an instance with state is built on the main thread, a worker reads its
// root's variable files itself, and no worker starts when `--var` gives values on the command line.
import type { VariableArgs } from "../../terraform/config/tfvars.js";
import type { EstateAnalyzeOptions } from "../analyze.js";
import type { OffloadJob } from "../load.js";
import type { InputError } from "../../core/model.js";
import type { DeferredDir } from "../../terraform/config/modules.js";
import type { SpilledInstance } from "../spill/instance.js";
import type { GateShare } from "../gate-share.js";

/** The worker's `workerData`: its number (its files' names) and `WorkerInit` as bytes. */
export interface WorkerData {
  id: number;
  init: Uint8Array;
}

export interface WorkerInit {
  base: string;
  cwd: string;
  /** The spill directory the worker writes its record files into (see `workerFiles`). */
  dir: string;
  deferred: [string, DeferredDir][];
  analyze: EstateAnalyzeOptions;
  variables: VariableArgs;
  /** Each job's result also holds what `gate` checks of the instance. */
  gateShares: boolean;
}

/** One instance to build: `job` is an `OffloadJob` as bytes; `release` the deferred directories no later job needs. */
export interface JobMessage {
  index: number;
  job: Uint8Array;
  release: string[];
}

/** `JobReply.result`'s bytes. Every zone's inventory is in the worker's inventories file (`inventory` is null). */
export interface JobResult {
  spilled: SpilledInstance;
  errors: InputError[];
  /** The deferred directories the worker read since its last answer. */
  read: string[];
  /** What `gate` checks of the instance (when `WorkerInit.gateShares`). */
  gate?: GateShare;
}

export type JobReply =
  | { index: number; kind: "done"; result: Uint8Array }
  /** The instance's share cannot be sent exactly: the main thread builds it. */
  | { index: number; kind: "fallback" }
  /** The build threw: its message (one line), and the exit code when the error was the user's input. */
  | { index: number; kind: "error"; message: string; exitCode?: number };

export type { OffloadJob };

/** The record files of worker `id` in the spill directory. */
export function workerFiles(id: number): { resources: string; zones: string; findings: string; inventories: string } {
  return { resources: `w${id}-resources.txt`, zones: `w${id}-zones.txt`, findings: `w${id}-findings.txt`, inventories: `w${id}-inventories.bin` };
}
