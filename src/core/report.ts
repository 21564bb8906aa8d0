// Assembles the JSON report (DESIGN.md section 4) from the inventory and the analysis. Pure.
import type { AnalysisResult } from "./analyze.js";
import { sortFindings } from "./findings.js";
import type { Finding, InputError, InventoryResource, PlanStep, Report, ReportResource, ReportRoot, StreamedReport } from "./model.js";
import { compareText } from "./text-order.js";

export const TOOL_NAME = "cf-waf-migrate";

/** What the report shows of an inventory resource. */
export type ReportedResource = Pick<InventoryResource, "address" | "type" | "file" | "line" | "zoneId" | "inConfig" | "inState" | "noInstances">;

/**
 * The report's entry for a resource, and all that is kept of it when an estate is analysed while it loads
 * (estate/stream.ts): one projection, so the streamed and the loaded report list the same fields.
 */
export function reportedResource(r: ReportedResource): Omit<ReportResource, "root" | "workspace"> {
  return {
    address: r.address,
    type: r.type,
    file: r.file,
    line: r.line,
    zoneId: r.zoneId,
    inConfig: r.inConfig,
    inState: r.inState,
    // A block whose count/for_each gives no instance (listed, nothing of it evaluated): as certs.certificates[] says.
    ...(r.noInstances ? { noInstances: true } : {}),
  };
}

/** What the report takes of an analysis: each zone's entry and the findings (not the zones' inventories). */
export interface ReportAnalysis {
  zones: Pick<AnalysisResult["zones"][number], "zone">[];
  findings: AnalysisResult["findings"];
}

export function buildReport(input: {
  version: string;
  root?: string;
  /** Several roots or workspaces (an estate): the instances read; resources then carry theirs. */
  roots?: ReportRoot[];
  resources: (ReportedResource & { root?: string; workspace?: string })[];
  analysis: ReportAnalysis;
  extraFindings?: Finding[];
  errors: InputError[];
  planSteps?: PlanStep[];
}): Report {
  const report: Report = {
    schemaVersion: 1,
    tool: { name: TOOL_NAME, version: input.version },
    ...(input.root !== undefined ? { root: input.root } : {}),
    ...(input.roots !== undefined ? { roots: input.roots } : {}),
    resources: input.resources.map((r) => ({
      ...reportedResource(r),
      ...(r.root !== undefined ? { root: r.root, workspace: r.workspace ?? "default" } : {}),
    })),
    zones: input.analysis.zones.map((z) => z.zone),
    findings: sortFindings([...input.analysis.findings, ...(input.extraFindings ?? [])]),
    errors: sortErrors(input.errors),
  };
  if (input.planSteps) report.plan = { steps: input.planSteps };
  return report;
}

/** A report whose lists are read back item by item (estate/spill), with its lists in memory: the same report. */
export function wholeReport<R extends StreamedReport>(report: R): Omit<R, "resources" | "zones" | "findings"> & Report {
  return { ...report, resources: [...report.resources], zones: [...report.zones], findings: [...report.findings] };
}

/** Input errors by file, then line (what `merge` re-sorts shard reports with). */
export function sortErrors(errors: InputError[]): InputError[] {
  return [...errors].sort((a, b) => compareText(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0));
}
