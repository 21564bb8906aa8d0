// Root workers for a spilled scan (issue #17): instances without state are built, analysed and spilled on
// worker threads (./root-worker.ts), each into its own record files in the run's spill directory; the main
// thread keeps discovery, the module graph, the instances with state, the split-zone join and the report,
// and builds instances too while every worker has its next job waiting. By default min(2, cores) builders
// (this thread and one worker: a second worker on two cores gained nothing and cost ~40 MB of peak RSS),
// when the estate is big enough to pay for a worker's start-up; CFWM_ROOT_WORKERS (or the caller) says how
// many workers instead (0: none). Results do not depend on which worker built what: each instance's share
// comes back to its place in instance order, and the report reads each list where it was written.
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { UserInputError } from "../../core/user-input-error.js";
import type { ConfigTree, DeferredDir } from "../../terraform/config/modules.js";
import type { VariableArgs } from "../../terraform/config/tfvars.js";
import type { EstateAnalyzeOptions } from "../analyze.js";
import type { GateShare } from "../gate-share.js";
import type { Built, Offload, OffloadFactory, OffloadJob } from "../load.js";
import { fromBytes, toBytes } from "../../terraform/parse-pool/clone.js";
import type { SpilledInstance, SpillFiles } from "../spill/instance.js";
import { RecordFile } from "../spill/records.js";
import { workerFiles, type JobMessage, type JobReply, type JobResult, type WorkerData, type WorkerInit } from "./messages.js";

/** The environment variable that sets how many root workers a scan uses (0: none), whatever the estate's size. */
export const ROOT_WORKERS_ENV = "CFWM_ROOT_WORKERS";

/**
 * Bytes of configuration in the deferred directories (what the roots' builds read) below which no worker
 * starts: a worker's start-up (~0.1 s of CPU and of wall time: it compiles its own code, without V8's
 * cache) costs more than it saves on a small estate. Two builders read ~7 MB/s more than one on the 100 MB
 * bench tree; 4 MB keeps a margin.
 */
export const ROOT_WORKER_MIN_BYTES = 4_000_000;

/**
 * A worker's young generation (V8's default is ~3x larger). Its builds' garbage is short-lived: measured on
 * the 100 MB bench tree, peak RSS 273-292 MB with the default, 262-269 MB with this, user CPU no worse
 * (23.6-23.7 s vs 23.0-25.2 s). The old generation is left alone: a big root must not run out of heap.
 */
const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * Jobs sent to one worker before its answers come (the next ones wait there, not on this thread); when
 * every worker has that many, the main thread builds the next instance itself. The main thread hands out
 * jobs only between its own builds, so with two the worker often finished both while this thread was
 * still building a big instance, and waited: 2.1 s idle of its 14.5 s (CPU profile, 100 MB bench tree).
 * Measured there, three rounds of paired runs on a busy machine: wall / CPU 0.59 with two, 0.566 with three,
 * 0.567 with four (the same CPU, ~4% less wall); peak RSS 263-282 → 281-291 MB (the worker builds more).
 */
const MIN_IN_FLIGHT = 3;

/**
 * More jobs, up to MAX_IN_FLIGHT, wait in a worker while those waiting there hold fewer than
 * IN_FLIGHT_CHARS characters of files that may hold Cloudflare resources (what a build reads closely). A
 * monorepo's roots are mostly files a build skims (one Cloudflare file among ten): the worker finished three
 * of them long before this thread handed out more. Measured on the bench's monorepo (10,000 files, 3 %
 * relevant), four paired runs: 3.88 s wall with three, 3.71 with five, 3.63 with eight, the same CPU; on the
 * 100 MB tree (every file relevant, ~0.5 MB a root) eight cost wall and memory, so there three stay the rule.
 */
const MAX_IN_FLIGHT = 8;
const IN_FLIGHT_CHARS = 1_000_000;

export interface RootWorkerOptions {
  dir: string;
  analyze: EstateAnalyzeOptions;
  variables: VariableArgs;
  cwd: string;
  /** How many workers; absent: CFWM_ROOT_WORKERS, else min(2, cores) - 1 when the estate is big enough. */
  workers?: number;
  /** Each built instance also gives what `gate` checks of it (estate/gate-share.ts). */
  gateShares?: boolean;
  /** Told how many workers start, as they start. */
  onStart?: (count: number) => void;
}

/** How many root workers: the caller's choice, else the environment's, else by the estate's size. */
export function rootWorkerCount(chosen: number | undefined, bigEnough: () => boolean, env: NodeJS.ProcessEnv = process.env): number {
  if (chosen !== undefined) return Math.max(0, Math.floor(chosen));
  const fromEnv = env[ROOT_WORKERS_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== "" && Number.isInteger(Number(fromEnv))) return Math.max(0, Number(fromEnv));
  // The main thread builds instances too: two builders (this thread and one worker) on two cores or more.
  return bigEnough() ? Math.min(2, availableParallelism()) - 1 : 0;
}

/**
 * Whether the caller or the environment asks for at least one worker whatever the estate's size: the estate
 * is then read deferred even when small (workers build from the directories still to read).
 */
export function rootWorkersChosen(chosen: number | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return rootWorkerCount(chosen, () => false, env) > 0;
}

/** Whether the deferred directories' files hold at least `limit` bytes (stops counting there). */
export function deferredBytesReach(deferred: Map<string, DeferredDir>, limit: number): boolean {
  let bytes = 0;
  for (const d of deferred.values()) {
    for (const f of d.files ?? []) {
      try {
        bytes += statSync(f).size;
      } catch {
        // Unreadable: its read reports it.
      }
      if (bytes >= limit) return true;
    }
  }
  return false;
}

/**
 * The offload of a spilled scan: `keep` takes an instance's share spilled into a worker's files (opened here
 * to be read, and handed to `opened` so the scan closes them).
 */
export function rootWorkerOffload<T>(opts: RootWorkerOptions, keep: (s: SpilledInstance, into: SpillFiles, gate: GateShare | undefined) => T, opened: (f: RecordFile) => void): OffloadFactory<T> {
  return (ctx) => {
    const count = rootWorkerCount(opts.workers, () => deferredBytesReach(ctx.deferred, ROOT_WORKER_MIN_BYTES));
    const workerFile = fileURLToPath(new URL("./root-worker.js", import.meta.url));
    // Running from the TypeScript sources (tests) there is no compiled worker: everything stays here.
    // `--var NAME=VALUE` values would have to be sent (a worker reads --var-file files itself): none start.
    if (count === 0 || opts.variables.vars.length > 0 || !existsSync(workerFile)) return null;
    const init: WorkerInit = { base: ctx.base, cwd: opts.cwd, dir: opts.dir, deferred: [...ctx.deferred], analyze: opts.analyze, variables: opts.variables, gateShares: opts.gateShares === true };
    const bytes = toBytes(init);
    if (bytes === null) return null;
    opts.onStart?.(count);
    return new RootPool<T>(workerFile, count, bytes, opts.dir, ctx.deferred, ctx.subtrees, keep, opened);
  };
}

interface Job<T> {
  index: number;
  bytes: Buffer;
  /** jobWeight of it. */
  weight: number;
  resolve: (b: Built<T> | null) => void;
  reject: (e: Error) => void;
}

interface Slot<T> {
  worker: Worker;
  id: number;
  busy: Map<number, Job<T>>;
  /** The busy jobs' weight. */
  weight: number;
  /** Deferred directories no job still to come needs: dropped by the worker after its next job. */
  release: string[];
  files: SpillFiles | null;
}

class RootPool<T> implements Offload<T> {
  private readonly slots: Slot<T>[] = [];
  private readonly queue: Job<T>[] = [];
  private readonly users = new Map<string, number>();
  /** The roots whose turn has come (by directory; a root's workspaces share its subtree). */
  private readonly counted = new Set<string>();
  private nextIndex = 0;
  private failure: Error | null = null;

  constructor(
    file: string,
    size: number,
    init: Buffer,
    private readonly dir: string,
    private readonly deferred: Map<string, DeferredDir>,
    subtrees: ConfigTree[],
    private readonly keep: (s: SpilledInstance, into: SpillFiles, gate: GateShare | undefined) => T,
    private readonly opened: (f: RecordFile) => void,
    WorkerThread: typeof Worker = requireWorker(),
  ) {
    for (const sub of subtrees) for (const d of this.dirsOf(sub)) this.users.set(d, (this.users.get(d) ?? 0) + 1);
    for (let id = 0; id < size; id++) {
      const workerData: WorkerData = { id, init };
      const worker = new WorkerThread(file, { workerData, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
      const slot: Slot<T> = { worker, id, busy: new Map(), weight: 0, release: [], files: null };
      worker.on("message", (m: JobReply) => this.answer(slot, m));
      worker.on("error", (e) => this.fail(slot, e));
      worker.on("exit", (code) => this.fail(slot, new Error(`a root worker stopped (exit code ${code})`)));
      this.slots.push(slot);
    }
  }

  build(job: OffloadJob): Promise<Built<T> | null> | null {
    if (this.failure) return Promise.reject(this.failure);
    this.countDown(job);
    // Every worker has its next jobs waiting: this thread builds this one meanwhile.
    if (!this.slots.some(hasRoom)) return null;
    const bytes = toBytes(job);
    if (bytes === null) return null;
    const weight = jobWeight(job.sub, this.deferred);
    return new Promise((resolve, reject) => {
      this.queue.push({ index: this.nextIndex++, bytes, weight, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pump(): void {
    for (;;) {
      const slot = this.slots.filter(hasRoom).sort((a, b) => a.busy.size - b.busy.size)[0];
      const job = slot && this.queue.shift();
      if (!slot || !job) return;
      slot.busy.set(job.index, job);
      slot.weight += job.weight;
      const message: JobMessage = { index: job.index, job: job.bytes, release: slot.release.splice(0) };
      slot.worker.postMessage(message);
    }
  }

  /** A root's turn has come (here or in a worker): the deferred directories no later root reaches can go. */
  private countDown(job: OffloadJob): void {
    if (this.counted.has(job.root.dir)) return;
    this.counted.add(job.root.dir);
    for (const d of this.dirsOf(job.sub)) {
      const left = (this.users.get(d) ?? 1) - 1;
      this.users.set(d, left);
      if (left <= 0) for (const s of this.slots) s.release.push(d);
    }
  }

  private answer(slot: Slot<T>, m: JobReply): void {
    const job = slot.busy.get(m.index);
    if (!job) return;
    slot.busy.delete(m.index);
    slot.weight -= job.weight;
    try {
      if (m.kind === "fallback") job.resolve(null);
      else if (m.kind === "error") job.reject(m.exitCode !== undefined ? new UserInputError(m.message, m.exitCode) : new Error(m.message));
      else {
        const r = fromBytes<JobResult>(Buffer.from(m.result));
        job.resolve({ kept: this.keep(r.spilled, this.filesOf(slot), r.gate), errors: r.errors, read: r.read });
      }
    } catch (e) {
      job.reject(e as Error);
    }
    this.pump();
  }

  /** The worker's record files, opened here to be read once it has written to them. */
  private filesOf(slot: Slot<T>): SpillFiles {
    if (slot.files) return slot.files;
    const names = workerFiles(slot.id);
    const open = (name: string) => {
      const f = new RecordFile(path.join(this.dir, name), true);
      this.opened(f);
      return f;
    };
    slot.files = { resources: open(names.resources), zones: open(names.zones), findings: open(names.findings), inventories: open(names.inventories) };
    return slot.files;
  }

  /** A worker died: what it was doing fails, and so does every job after (the run ends with the error). */
  private fail(slot: Slot<T>, e: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    const error = new Error(String(e?.message ?? e).replace(/\s*\n\s*/g, " "));
    this.failure ??= error;
    for (const job of slot.busy.values()) job.reject(error);
    slot.busy.clear();
    slot.weight = 0;
    if (this.slots.length === 0) for (const job of this.queue.splice(0)) job.reject(error);
    else this.pump();
  }

  private dirsOf(sub: ConfigTree): Set<string> {
    return new Set(sub.nodes.map((n) => n.dir.dir).filter((d) => this.deferred.has(d)));
  }
}

/**
 * A job's weight: the characters of its deferred directories' files that may hold Cloudflare resources, as
 * the first read found them (each module node's ModuleDir.relevantChars). A directory without that figure
 * counts as the whole budget: no job waits beside it.
 */
export function jobWeight(sub: ConfigTree, deferred: ReadonlyMap<string, DeferredDir>): number {
  const weights = new Map<string, number>();
  for (const n of sub.nodes) if (deferred.has(n.dir.dir)) weights.set(n.dir.dir, n.dir.relevantChars ?? IN_FLIGHT_CHARS);
  let weight = 0;
  for (const w of weights.values()) weight += w;
  return weight;
}

/** Whether a worker takes another job now: fewer than MIN_IN_FLIGHT waiting, or more while they are light. */
export function hasRoom(slot: { busy: { size: number }; weight: number }): boolean {
  return slot.busy.size < MIN_IN_FLIGHT || (slot.busy.size < MAX_IN_FLIGHT && slot.weight < IN_FLIGHT_CHARS);
}

// worker_threads is loaded only when a pool starts: most runs never start one.
function requireWorker(): typeof Worker {
  return (createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads")).Worker;
}
