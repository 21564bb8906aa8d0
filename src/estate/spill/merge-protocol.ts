// What the main thread (./merge-offload.ts) and the findings' merge worker (./merge-worker.ts) share: the
// worker's data, the pieces' size and the layout of the shared memory they meet in.
import type { FindingOrderKey } from "../../core/findings.js";
import type { Span } from "./records.js";

/**
 * Characters of the body per piece. Below V8's large-object size (~128 KB): a bigger piece's string lives
 * until a full collection, and hundreds of them raised peak RSS by ~50 MB on the 100 MB bench tree.
 */
export const PIECE_CHARS = 1 << 15;

/** Pieces published and not yet read that the shared table holds (the worker waits when it is full). */
export const TABLE = 1 << 14;

/**
 * The shared state: counters (Int32Array, COUNTERS of them) and, per piece, where it ends and how many
 * findings it holds. The counters, by index: pieces published by the worker and taken by the main thread;
 * the worker's state; stopped, set by the main thread when it no longer reads (the worker stops at its next
 * piece); who merges the list's tail (core/findings.ts LAST_SEVERITY), set once by compare-and-exchange.
 */
export const AT = { published: 0, taken: 1, state: 2, stopped: 3, tailOwner: 4 } as const;
export const COUNTERS = 8;
/** Values of the worker's state. */
export const WORKER = { running: 0, done: 1, failed: 2 } as const;
/** Values of the tail's owner. */
export const TAIL_BY = { nobody: 0, worker: 1, mainThread: 2 } as const;

export interface MergeShared {
  counters: Int32Array;
  /** Per piece (index mod TABLE): where its record ends in the body's file, once it is written. */
  ends: Float64Array;
  /** Per piece: how many findings it holds. */
  items: Int32Array;
}

/** The shared memory, zeroed: the counters, then each piece's end, then each piece's count (sharedViews). */
export function newShared(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * COUNTERS + 8 * TABLE + 4 * TABLE);
}

export function sharedViews(buffer: SharedArrayBuffer): MergeShared {
  const at = 4 * COUNTERS;
  return { counters: new Int32Array(buffer, 0, COUNTERS), ends: new Float64Array(buffer, at, TABLE), items: new Int32Array(buffer, at + 8 * TABLE, TABLE) };
}

/** A spilled run as another thread opens it: its file's path, the span of its records and where its tail starts. */
export interface RunOnDisk {
  path: string;
  span: Span;
  tail: number;
}

/** What the worker is given. */
export interface MergeWorkerData {
  /** The runs, in instance order. */
  runs: RunOnDisk[];
  /** The runs of findings kept in memory, keyed, with their report text (merged after the spilled runs). */
  inMemory: { key: FindingOrderKey; text: string }[][];
  /** The file the body is written to (the worker makes it). */
  out: string;
  shared: SharedArrayBuffer;
}
