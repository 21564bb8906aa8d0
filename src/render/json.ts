// The JSON report, schemaVersion 1 (docs/report-format.md). The text is exactly
// `JSON.stringify(report, null, 2)`; `renderJsonChunks` yields it piece by piece (one array element at a
// time), so a report of a hundred thousand resources is written without holding one giant string.
import type { Report } from "../core/model.js";

export function renderJson(report: Report): string {
  return [...renderJsonChunks(report)].join("");
}

export function* renderJsonChunks(report: Report): Generator<string> {
  const entries = Object.entries(report).filter(([, v]) => v !== undefined);
  yield "{";
  let first = true;
  for (const [key, value] of entries) {
    yield `${first ? "" : ","}\n  ${JSON.stringify(key)}: `;
    first = false;
    if (Array.isArray(value) && value.length > 0) {
      yield "[";
      for (let i = 0; i < value.length; i++) yield `${i ? "," : ""}\n    ${indent(JSON.stringify(value[i], null, 2), "    ")}`;
      yield "\n  ]";
    } else {
      yield indent(JSON.stringify(value, null, 2), "  ");
    }
  }
  yield entries.length ? "\n}\n" : "}\n";
}

/** Indents every line after the first: the value continues a line already indented by the caller. */
function indent(json: string, pad: string): string {
  return json.includes("\n") ? json.replace(/\n/g, `\n${pad}`) : json;
}
