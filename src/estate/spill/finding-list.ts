// The findings of a spilled scan as a list that can be merged with more findings without reading them:
// each is its order key (core/findings.ts findingOrderKey) and its text in the JSON report, or, for a
// finding kept in memory, the finding itself. Walked as findings, the texts are parsed; walked as the JSON
// report's texts (ReportList.jsonTexts), they are copied.
import { compareFindings, type FindingOrderKey } from "../../core/findings.js";
import { mapItems } from "../../core/iterate.js";
import { jsonListBody, reportItemJson } from "../../render/json.js";
import type { Finding, ReportList } from "../../core/model.js";
import { readFindingRecord } from "./finding-record.js";
import { mergeSorted } from "./kmerge.js";
import type { RecordFile, Span } from "./records.js";

export type KeyedFinding = { key: FindingOrderKey; text: string } | { key: Finding; text: null };

export interface KeyedFindingList extends ReportList<Finding> {
  keyed(): Iterable<KeyedFinding>;
  /**
   * The list with `extra` (sorted) merged into it, after its own findings on a tie. A spilled scan's list
   * (./scan.ts) gives one whose JSON text is still merged on a worker.
   */
  withInMemory(extra: readonly Finding[]): KeyedFindingList;
}

/**
 * `body`: the JSON report's text of the list put together elsewhere (./merge-offload.ts), or null when it is
 * not (the texts are then copied here).
 */
export function keyedFindingList(length: number, keyed: () => Iterable<KeyedFinding>, body: () => Iterable<string> | null = () => null): KeyedFindingList {
  const jsonTexts = () => mapItems(keyed(), keyedText);
  return {
    length,
    keyed,
    withInMemory: (extra) => keyedFindingList(length + extra.length, () => mergeKeyed([keyed(), keyedInMemory(extra)])),
    jsonBody: () => body() ?? jsonListBody(jsonTexts()),
    *[Symbol.iterator]() {
      for (const f of keyed()) yield f.text === null ? f.key : (JSON.parse(f.text) as Finding);
    },
    jsonTexts,
  };
}

/** A keyed finding's text in the JSON report (a finding kept in memory is printed as the report prints it). */
export function keyedText(f: KeyedFinding): string {
  return f.text ?? reportItemJson(f.key);
}

export function isKeyedFindingList(list: ReportList<Finding>): list is KeyedFindingList {
  return typeof (list as Partial<KeyedFindingList>).keyed === "function";
}

/** Sorted runs of keyed findings merged into one sorted list (ties to the earlier run). */
export function mergeKeyed(runs: Iterable<KeyedFinding>[]): Generator<KeyedFinding> {
  return mergeSorted(runs, (a, b) => compareFindings(a.key, b.key));
}

/**
 * Findings in memory as keyed findings; `textOf` gives the JSON report's text of a finding whose text is
 * kept elsewhere (null: print the finding itself).
 */
export function keyedInMemory(findings: Iterable<Finding>, textOf: (f: Finding) => string | null = () => null): Generator<KeyedFinding> {
  return (function* () {
    for (const f of findings) yield { key: f, text: textOf(f) };
  })();
}

/** A run of spilled finding records (./finding-record.ts): one instance's, sorted. */
export interface FindingRun {
  file: RecordFile;
  span: Span;
}

/**
 * Each run's findings before its tail (`tail`: where its core/findings.ts LAST_SEVERITY findings start, a
 * suffix of every sorted run), and from there: the merge of the runs is the heads' merge, then the tails'.
 */
export function splitRuns(runs: readonly (FindingRun & { tail: number })[]): { head: FindingRun[]; tail: FindingRun[] } {
  return {
    head: runs.map((r) => ({ file: r.file, span: { start: r.span.start, end: r.tail } })),
    tail: runs.map((r) => ({ file: r.file, span: { start: r.tail, end: r.span.end } })),
  };
}

/**
 * The spilled runs, in instance order, and the runs of findings kept in memory (after them, in their order:
 * a tie goes to the earlier run) merged into the report's order, each run read `readSize` bytes at a time.
 * Where the merge runs (this thread or ./merge-worker.ts) it is this one.
 */
export function mergeFindingRuns(runs: readonly FindingRun[], inMemory: readonly Iterable<KeyedFinding>[], readSize = mergeReadSize(runs.length)): Generator<KeyedFinding> {
  return mergeKeyed([...runs.map((run) => mapItems(run.file.texts(run.span, readSize), readFindingRecord)), ...inMemory]);
}

/** Bytes read at a time from each of `runs` runs merged at once: 64 KB each, all of them within 8 MB. */
function mergeReadSize(runs: number): number {
  return Math.max(1 << 12, Math.min(1 << 16, Math.floor((1 << 23) / Math.max(1, runs))));
}
