// What `gate` adds to the shared report: the text report's tail (the provider upgrade's status, the blocking
// findings, the verdict as the very last line) and the HTML report's verdict. Pure, like the other renderers.
import { severityRank, tripsFailOn } from "../core/findings.js";
import type { FailOn, Finding, Report } from "../core/model.js";
import { reportPath, withLine } from "../core/report-paths.js";
import { makeStyle } from "./style.js";

/**
 * What the text report of `gate` ends with: the provider upgrade's status, the blocking findings, and the
 * verdict line as the very last line.
 */
export function gateTextTail(report: Report, failOn: FailOn, summaries: string[], color = false): string {
  const st = makeStyle(color);
  const lines: string[] = ["", st.bold("Provider upgrade")];
  for (const s of summaries) lines.push(`  ${s}`);
  const blocking = report.findings.filter((f) => tripsFailOn(f.severity, failOn));
  if (blocking.length) {
    lines.push("");
    lines.push(st.bold(`Blocking findings (${blocking.length}, --fail-on ${failOn})`));
    for (const f of blocking) {
      const where = f.file ? withLine(reportPath(report, f.file), f.line) : (f.address ?? "");
      lines.push(`  ${st.severity(f.severity, f.severity.toUpperCase().padEnd(7))} ${f.code}  ${where}${f.address && f.file ? `  ${f.address}` : ""}`);
    }
  }
  lines.push("");
  lines.push(verdictLine(report, failOn, blocking, st));
  return lines.join("\n") + "\n";
}

/** The gate's verdict for the HTML report: the text report's last line, and the provider upgrade's status. */
export function gateVerdict(report: Report, failOn: FailOn, summaries: string[]): { failed: boolean; line: string; notes: string[] } {
  const blocking = report.findings.filter((f) => tripsFailOn(f.severity, failOn));
  return { failed: report.errors.length > 0 || blocking.length > 0, line: verdictLine(report, failOn, blocking, makeStyle(false)), notes: summaries };
}

function verdictLine(report: Report, failOn: FailOn, blocking: Finding[], st: ReturnType<typeof makeStyle>): string {
  const n = report.errors.length;
  if (n > 0) {
    return st.severity("error", `GATE FAILED: ${n} input${n === 1 ? "" : "s"} could not be read or parsed (exit 2); the result is incomplete`);
  }
  if (blocking.length > 0) {
    const counts = new Map<string, number>();
    for (const f of [...blocking].sort((a, b) => severityRank(b.severity) - severityRank(a.severity))) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
    const codes = [...counts].map(([c, k]) => (k > 1 ? `${c} x${k}` : c)).join(", ");
    return st.severity("error", `GATE FAILED: ${blocking.length} finding${blocking.length === 1 ? "" : "s"} at or above --fail-on ${failOn} (${codes})`);
  }
  const total = report.findings.length;
  const below = total === 0 ? "no findings" : `${total} finding${total === 1 ? "" : "s"}, none at or above --fail-on ${failOn}`;
  return st.ok(failOn === "never" ? `gate passed: --fail-on never (${total} finding${total === 1 ? "" : "s"} reported)` : `gate passed: ${below}`);
}
