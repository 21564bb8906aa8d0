// The JSON report's findings merged on a worker (./merge-worker.ts) while this thread writes the report's
// resources and zones (issue #17). A big scan's findings are hundreds of sorted runs on disk; merging them
// and putting their text together was the largest part of the report's write, which ran on one thread at
// the end of the scan while the other core idled (100 MB bench tree: ~1 s of a ~2 s tail).
//
// The worker writes the list's body (render/json.ts jsonListBody) to a file in the spill directory, piece
// by piece, and publishes each piece's end and item count in shared memory; this thread reads the pieces in
// order as the report reaches them (the report is rendered by a synchronous generator), waiting with
// `Atomics.wait` only when the worker is behind. The worker runs ahead as far as it can without holding
// anything (a window in memory held it back: it filled while this thread was still on the zones). The merge
// is the same function either side (finding-list.ts mergeFindingRuns): when the worker fails, or makes no
// progress for STALL_MS, this thread merges the rest itself, after the findings already written.
//
// The list's last severity (core/findings.ts LAST_SEVERITY) is a merge of its own, after the others': the
// first thread free for it takes it. This thread, instead of waiting for the worker's next piece, merges it
// into a file of its own and writes it after the worker's; a worker that gets there first merges it on.
// Measured on the 100 MB bench tree, this thread waited 0.5-0.8 s for the worker; its info findings (13 %
// of them) fill part of that wait.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { findingOrderKey } from "../../core/findings.js";
import { dropItems, mapItems } from "../../core/iterate.js";
import { jsonListBody } from "../../render/json.js";
import { keyedText, type KeyedFinding } from "./finding-list.js";
import { AT, type MergeShared, type MergeWorkerData, newShared, type RunOnDisk, sharedViews, TAIL_BY, TABLE, WORKER } from "./merge-protocol.js";
import { HeldTail, type TailMerge } from "./merge-tail.js";
import { RecordFile } from "./records.js";

/** `CFWM_MERGE_WORKER`: `0` never starts the worker, `1` always does (the tests' way on small trees). */
export const MERGE_WORKER_ENV = "CFWM_MERGE_WORKER";

/**
 * Bytes of spilled finding records below which the merge stays on this thread: the worker's start-up
 * (~50 ms of CPU) pays back from ~30,000 findings (~3.5 µs each to merge and put together here).
 */
export const MERGE_WORKER_MIN_BYTES = 16 << 20;

/**
 * How long this thread waits for the worker's next piece before it merges the rest itself. Only a worker
 * that died without a word (out of memory) is that slow: a busy machine's worker finishes a piece every few
 * milliseconds of its CPU. Reaching it costs time, never the report.
 */
const STALL_MS = 30_000;

/** The worker's young generation: its garbage is short-lived (V8's default let its heap grow ~40 MB more). */
const YOUNG_GENERATION_MB = 4;

export interface OffloadedMerge {
  /**
   * The list's body (render/json.ts jsonListBody), from the worker and, when given `tail`, from this thread
   * while it would wait; `merged` is the whole list, merged here (what a failed worker left is taken from it).
   */
  body(merged: () => Iterable<KeyedFinding>, tail?: TailMerge): Generator<string>;
  /** Stops the worker (when the body was not read to its end). */
  close(): void;
}

/**
 * Starts the merge of `runs` (each file flushed) and the runs `inMemory` on a worker, writing into `dir`, when the
 * runs are big enough (or CFWM_MERGE_WORKER says) and the worker is built; null otherwise (merge here).
 */
export function startMergeWorker(dir: string, runs: RunOnDisk[], inMemory: readonly (readonly KeyedFinding[])[], env: NodeJS.ProcessEnv = process.env): OffloadedMerge | null {
  const choice = env[MERGE_WORKER_ENV]?.trim();
  if (choice === "0") return null;
  const bytes = runs.reduce((n, r) => n + r.span.end - r.span.start, 0);
  if (choice !== "1" && bytes < MERGE_WORKER_MIN_BYTES) return null;
  const file = fileURLToPath(new URL("./merge-worker.js", import.meta.url));
  // Running from the TypeScript sources (tests) there is no compiled worker: the merge stays here.
  if (!existsSync(file)) return null;
  const out = path.join(dir, "merged-findings.txt");
  // Made by the worker (as the scan's record files are made); nothing is read from it before a piece is published.
  if (!existsSync(dir) || existsSync(out)) return null;
  const shared = newShared();
  const data: MergeWorkerData = { runs, inMemory: inMemory.map((run) => run.map((f) => ({ key: findingOrderKey(f.key), text: keyedText(f) }))), out, shared };
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  let worker: Worker;
  try {
    worker = new Worker(file, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  } catch {
    return null;
  }
  worker.unref();
  // A failure is published in the shared state; an 'error' event must not end the process meanwhile.
  worker.on("error", () => undefined);
  return new WorkerMerge(worker, out, sharedViews(shared));
}

class WorkerMerge implements OffloadedMerge {
  private closed = false;
  /** The body's file (the worker's records), opened to be read once the worker has published a piece. */
  private reader: RecordFile | null = null;
  /** The tail merged here so far, once this thread took it. */
  private tail: HeldTail | null = null;
  private tailRefused = false;

  constructor(
    private readonly worker: Worker,
    private readonly file: string,
    private readonly shared: MergeShared,
  ) {}

  *body(merged: () => Iterable<KeyedFinding>, tail?: TailMerge): Generator<string> {
    const { counters, ends, items } = this.shared;
    let taken = 0;
    let position = 0;
    let written = 0;
    while (!this.closed) {
      const published = Atomics.load(counters, AT.published);
      if (taken < published) {
        const slot = taken % TABLE;
        const end = ends[slot]!;
        this.reader ??= new RecordFile(this.file, true);
        const text = this.reader.text({ start: position, end });
        written += items[slot]!;
        position = end;
        Atomics.store(counters, AT.taken, ++taken);
        Atomics.notify(counters, AT.taken);
        yield text;
        continue;
      }
      const state = Atomics.load(counters, AT.state);
      if (state === WORKER.done && Atomics.load(counters, AT.published) === taken) {
        // The worker is done before the tail when this thread took it (or when it left it: a worker that
        // does not take it in time is not waited for): what was merged here, then the rest.
        const held = this.tail ?? (tail && Atomics.load(counters, AT.tailOwner) !== TAIL_BY.worker ? new HeldTail(tail) : null);
        this.tail = null;
        this.close();
        if (held) yield* held.texts();
        return;
      }
      if (state === WORKER.failed) break;
      // Rather than wait: a piece of the tail, when this thread has (or can take) it.
      if (state === WORKER.running && tail && this.mergeTailPiece(tail)) continue;
      if (state === WORKER.running && Atomics.wait(counters, AT.published, published, STALL_MS) === "timed-out") break;
    }
    this.close();
    yield* jsonListBody(mapItems(dropItems(merged(), written), keyedText), written);
  }

  /** Merges one piece of the tail into its file; false when there is none to merge here. */
  private mergeTailPiece(tail: TailMerge): boolean {
    if (this.tailRefused) return false;
    if (!this.tail) {
      if (Atomics.compareExchange(this.shared.counters, AT.tailOwner, TAIL_BY.nobody, TAIL_BY.mainThread) !== TAIL_BY.nobody) {
        this.tailRefused = true;
        return false;
      }
      this.tail = new HeldTail(tail);
    }
    return this.tail.mergePiece();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.shared.counters, AT.stopped, 1);
    Atomics.notify(this.shared.counters, AT.taken);
    this.reader?.close();
    this.tail?.close();
    void this.worker.terminate();
  }
}
