// The JSON report, schemaVersion 1 (docs/report-format.md). The text is exactly
// `JSON.stringify(report, null, 2)`; `renderJsonChunks` yields it piece by piece (one array element at a
// time), so a report of a hundred thousand resources is written without holding one giant string.
// A report whose lists are read back from disk (estate/spill) is written the same way, one item at a time.
import type { Report, ReportList, StreamedReport } from "../core/model.js";
import { indentedJson } from "./indented-json.js";
import { mapItems } from "../core/iterate.js";

export function renderJson(report: Report | StreamedReport): string {
  return [...renderJsonChunks(report)].join("");
}

export function* renderJsonChunks(report: Report | StreamedReport): Generator<string> {
  const entries = Object.entries(report).filter(([, v]) => v !== undefined);
  yield "{";
  let first = true;
  for (const [key, value] of entries) {
    yield `${first ? "" : ","}\n  ${JSON.stringify(key)}: `;
    first = false;
    if (isList(value) && value.length > 0) {
      yield "[";
      if (value.jsonBody) yield* value.jsonBody();
      else yield* jsonListBody(value.jsonTexts ? value.jsonTexts() : mapItems(value, reportItemJson));
      yield "\n  ]";
    } else if (isList(value)) {
      yield "[]";
    } else {
      yield indentedJson(value, 1);
    }
  }
  yield entries.length ? "\n}\n" : "}\n";
}

/**
 * What a top-level list prints between its brackets, from its items' texts (`reportItemJson`): each item on
 * its own line, a comma between two. `before`: items of the list already printed (a body continued).
 */
export function* jsonListBody(texts: Iterable<string>, before = 0): Generator<string> {
  let i = before;
  for (const text of texts) yield `${i++ ? "," : ""}\n    ${text}`;
}

/**
 * An item of one of the report's top-level lists (resources, zones, findings) as this report prints it: two
 * levels deep. A large scan stores its items in this form when it spills them (estate/spill/), so the report
 * is written by copying their text.
 */
export function reportItemJson(item: unknown): string {
  return indentedJson(item, 2);
}

/** An array, or a list read back item by item (it has a length and can be walked). */
function isList(value: unknown): value is ReportList<unknown> {
  return Array.isArray(value) || (typeof value === "object" && value !== null && Symbol.iterator in value && typeof (value as { length?: unknown }).length === "number");
}
