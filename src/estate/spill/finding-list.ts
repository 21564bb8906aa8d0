// The findings of a spilled scan as a list that can be merged with more findings without reading them:
// each is its sort key (core/findings.ts findingSortKey), its order fields (findingOrderKey) and its text in
// the JSON report, or, for a finding kept in memory, the finding itself. Walked as findings, the texts are
// parsed; walked as the JSON report's texts (ReportList.jsonTexts), they are copied.
import { compareFindings, findingSortKey, type FindingOrderKey } from "../../core/findings.js";
import { reportItemJson } from "../../render/json.js";
import type { Finding, ReportList } from "../../core/model.js";
import { mergeSorted } from "./kmerge.js";

/** A spilled finding: `keyText` is its order fields as JSON, parsed (into `key`) only when compared without sort keys. */
export interface SpilledFinding {
  sort: string | null;
  keyText: string;
  key?: FindingOrderKey;
  text: string;
}

export type KeyedFinding = SpilledFinding | { sort: string | null; key: Finding; text: null };

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

/**
 * Sorted runs of keyed findings merged into one sorted list (ties to the earlier run). Two sort keys compare
 * as strings (a merge of a big scan's hundreds of runs compares ~16 times per finding); a finding without one
 * is compared by its fields.
 */
export function mergeKeyed(runs: Iterable<KeyedFinding>[]): Generator<KeyedFinding> {
  return mergeSorted(runs, (a, b) => {
    if (a.sort !== null && b.sort !== null) return a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0;
    return compareFindings(orderKey(a), orderKey(b));
  });
}

function orderKey(k: KeyedFinding): FindingOrderKey {
  if (k.text === null) return k.key;
  return (k.key ??= JSON.parse(k.keyText) as FindingOrderKey);
}

/** Findings in memory as keyed findings. */
export function keyedInMemory(findings: Iterable<Finding>): Generator<KeyedFinding> {
  return (function* () {
    for (const f of findings) yield { sort: findingSortKey(f), key: f, text: null };
  })();
}
