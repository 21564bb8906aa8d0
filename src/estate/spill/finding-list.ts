// The findings of a spilled scan as a list that can be merged with more findings without reading them:
// each is its order key (core/findings.ts findingOrderKey) and its text in the JSON report, or, for a
// finding kept in memory, the finding itself. Walked as findings, the texts are parsed; walked as the JSON
// report's texts (ReportList.jsonTexts), they are copied.
import { compareFindings, type FindingOrderKey } from "../../core/findings.js";
import { reportItemJson } from "../../render/json.js";
import type { Finding, ReportList } from "../../core/model.js";
import { mergeSorted } from "./kmerge.js";

export type KeyedFinding = { key: FindingOrderKey; text: string } | { key: Finding; text: null };

export interface KeyedFindingList extends ReportList<Finding> {
  keyed(): Iterable<KeyedFinding>;
}

export function keyedFindingList(length: number, keyed: () => Iterable<KeyedFinding>): KeyedFindingList {
  return {
    length,
    keyed,
    *[Symbol.iterator]() {
      for (const f of keyed()) yield f.text === null ? f.key : (JSON.parse(f.text) as Finding);
    },
    *jsonTexts() {
      for (const f of keyed()) yield f.text ?? reportItemJson(f.key);
    },
  };
}

export function isKeyedFindingList(list: ReportList<Finding>): list is KeyedFindingList {
  return typeof (list as Partial<KeyedFindingList>).keyed === "function";
}

/** Sorted runs of keyed findings merged into one sorted list (ties to the earlier run). */
export function mergeKeyed(runs: Iterable<KeyedFinding>[]): Generator<KeyedFinding> {
  return mergeSorted(runs, (a, b) => compareFindings(a.key, b.key));
}

/** Findings in memory as keyed findings. */
export function keyedInMemory(findings: Iterable<Finding>): Generator<KeyedFinding> {
  return (function* () {
    for (const f of findings) yield { key: f, text: null };
  })();
}
