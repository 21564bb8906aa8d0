// The JSON report, schemaVersion 1 (DESIGN.md section 4).
import type { Report } from "../core/model.js";

export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2) + "\n";
}
