// A spilled finding's record: the fields its order reads (core/findings.ts findingOrderKey) as compact JSON
// on a line of their own (compact JSON holds no line break), then its text in the JSON report. Runs of them
// are merged by the first line alone; the JSON report copies the rest. Its own file so the findings' merge
// worker (./merge-worker.ts) loads this and not the analysis that writes the records.
import { findingOrderKey, type FindingOrderKey } from "../../core/findings.js";
import type { Finding } from "../../core/model.js";
import { reportItemJson } from "../../render/json.js";

export function findingRecord(f: Finding): string {
  return `${JSON.stringify(findingOrderKey(f))}\n${reportItemJson(f)}`;
}

/** A spilled finding's order key and its report text. */
export function readFindingRecord(record: string): { key: FindingOrderKey; text: string } {
  const cut = record.indexOf("\n");
  return { key: JSON.parse(record.slice(0, cut)) as FindingOrderKey, text: record.slice(cut + 1) };
}
