// The compact one-line-per-problem text TFLint writes (`tflint --format compact`, formatter/compact.go), for
// editors and `errorformat`-style parsers: `N issue(s) found:`, a blank line, then per finding
// `file:line:column: Severity - message (CODE)` with TFLint's severity names (Error, Warning, Notice for
// info), and per input that could not be read `file:line:column: error - message`, as TFLint prints its
// parser's diagnostics. Unknown positions are 0; a finding of no file names the directory the report
// covers; an input error of no file (stdin) is left to stderr, where TFLint prints such errors too (and
// where this tool already wrote every input error). Findings in TFLint's issue order. Pure.
import type { Report, Severity } from "../core/model.js";
import { errorPath } from "../core/report-paths.js";
import { findingsInTflintOrder } from "./tflint-order.js";

/** tflint.Severity's String(). */
const SEVERITY_NAME: Record<Severity, string> = { error: "Error", warning: "Warning", info: "Notice" };

export function renderCompact(report: Report): string {
  let out = "";
  if (report.findings.length > 0) out += `${report.findings.length} issue(s) found:\n\n`;
  for (const { finding: f, file } of findingsInTflintOrder(report)) {
    out += `${file}:${f.line ?? 0}:0: ${SEVERITY_NAME[f.severity]} - ${oneLine(f.message)} (${f.code})\n`;
  }
  for (const e of report.errors) {
    const file = errorPath(report, e);
    if (file === null) continue;
    out += `${file}:${e.line ?? 0}:${e.column ?? 0}: error - ${oneLine(e.message)}\n`;
  }
  return out;
}

/** One problem, one line: a parser that reads this format splits on newlines. */
function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\r\n\u0000-\u001f\u007f]+/g, " ");
}
