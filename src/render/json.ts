// The JSON report, schemaVersion 1 (docs/report-format.md). The text is exactly
// `JSON.stringify(report, null, 2)`; `renderJsonChunks` yields it piece by piece (one array element at a
// time), so a report of a hundred thousand resources is written without holding one giant string.
// A report whose lists are read back from disk (estate/spill) is written the same way, one item at a time.
import type { Report, ReportList, StreamedReport } from "../core/model.js";

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
      let i = 0;
      for (const item of value) yield `${i++ ? "," : ""}\n    ${nested(item, 2)}`;
      yield "\n  ]";
    } else if (isList(value)) {
      yield "[]";
    } else {
      yield nested(value, 1);
    }
  }
  yield entries.length ? "\n}\n" : "}\n";
}

/** An array, or a list read back item by item (it has a length and can be walked). */
function isList(value: unknown): value is ReportList<unknown> {
  return Array.isArray(value) || (typeof value === "object" && value !== null && Symbol.iterator in value && typeof (value as { length?: unknown }).length === "number");
}

/**
 * `JSON.stringify(value, null, 2)` with every line after the first indented by `depth` levels: the value
 * continues a line the caller already indented. Stringified inside `depth` arrays, the value comes out
 * indented by JSON.stringify itself, and the arrays' brackets are cut off: on a 100 MB tree's report
 * (330 MB of JSON), re-indenting each item's text with a regular expression afterwards cost 2.4 s more.
 */
function nested(value: unknown, depth: 1 | 2): string {
  if (depth === 1) {
    const text = JSON.stringify([value], null, 2); // "[\n  " … "\n]"
    return text.slice(4, text.length - 2);
  }
  const text = JSON.stringify([[value]], null, 2); // "[\n  [\n    " … "\n  ]\n]"
  return text.slice(10, text.length - 6);
}
