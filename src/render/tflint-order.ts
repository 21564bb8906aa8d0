// The order TFLint sorts issues in (tflint/issue.go Issues.Sort): by file name (bytes), line, then message
// (no column or end position is known here). Shared by the two TFLint-shaped formats. Pure.
import type { Finding, Report } from "../core/model.js";
import { joinRoot, reportPath } from "../core/report-paths.js";

export interface PlacedFinding {
  finding: Finding;
  /** Working-directory-relative file; a finding of no file names the directory the report covers. */
  file: string;
}

export function findingsInTflintOrder(report: Report): PlacedFinding[] {
  const placed = report.findings.map((finding) => ({ finding, file: finding.file === null ? joinRoot(report.root, ".") : reportPath(report, finding.file) }));
  return placed.sort((a, b) => compareBytes(a.file, b.file) || (a.finding.line ?? 0) - (b.finding.line ?? 0) || compareBytes(a.finding.message, b.finding.message));
}

/** Go's string comparison: by UTF-8 bytes. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
