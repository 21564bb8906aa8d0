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
 * The shared state: counters (Int32Array) and, per piece, where it ends and how many findings it holds.
 * Counters: pieces PUBLISHED by the worker and TAKEN by the main thread; the worker's STATE (RUNNING, DONE,
 * FAILED); STOPPED, set by the main thread when it no longer reads (the worker stops at its next piece).
 */
export const PUBLISHED = 0;
export const TAKEN = 1;
export const STATE = 2;
export const RUNNING = 0;
export const DONE = 1;
export const FAILED = 2;
export const STOPPED = 3;
/** Who merges the list's tail (core/findings.ts LAST_SEVERITY): set once, by compare-and-exchange from NOBODY. */
export const TAIL_OWNER = 4;
export const NOBODY = 0;
export const THE_WORKER = 1;
export const THIS_THREAD = 2;
export const COUNTERS = 8;

export interface MergeShared {
  counters: Int32Array;
  /** Per piece (index mod TABLE): where its record ends in the body's file, once it is written. */
  ends: Float64Array;
  /** Per piece: how many findings it holds. */
  items: Int32Array;
}

export function sharedViews(buffer: SharedArrayBuffer): MergeShared {
  const at = 4 * COUNTERS;
  return { counters: new Int32Array(buffer, 0, COUNTERS), ends: new Float64Array(buffer, at, TABLE), items: new Int32Array(buffer, at + 8 * TABLE, TABLE) };
}

/** What the worker is given. */
export interface MergeWorkerData {
  /** The runs, in instance order: a file's path, the span of its records and where its tail starts. */
  runs: { path: string; span: Span; tail: number }[];
  /** The runs of findings kept in memory, keyed, with their report text (merged after the spilled runs). */
  inMemory: { key: FindingOrderKey; text: string }[][];
  /** The file the body is written to (the worker makes it). */
  out: string;
  shared: SharedArrayBuffer;
}
