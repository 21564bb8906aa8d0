// An estate analysed while it loads (scan offline): each instance is analysed as soon as it is built, and
// only what the split-zone join and the report need of it is kept: its zones and findings, its resources as
// the report lists them. Its configuration bodies, state values and domain inventory are not held until the
// end, so memory follows the report, not the estate. Same report as loadEstate + analyzeEstate. Pure: no I/O.
import { reportedResource } from "../core/report.js";
import type { EstateInstance } from "./load.js";
import { analyzeInstance, joinInstances, type AnalysedInstance, type EstateAnalyzeOptions } from "./analyze.js";
import { instanceInput, type EstateReportAnalysis, type ReportedInstance } from "./report.js";

/** What is kept of one instance until the join. */
export interface AnalysedForReport {
  reported: ReportedInstance;
  analysed: AnalysedInstance;
}

/** Analyses one loaded instance and keeps its report's share (the instance itself can then be dropped). */
export function analyseForReport(instance: EstateInstance, opts: EstateAnalyzeOptions): AnalysedForReport {
  const analysed = analyzeInstance(instanceInput(instance), opts);
  const reported: ReportedInstance = {
    root: instance.root,
    workspace: instance.workspace,
    stateFiles: instance.stateFiles,
    ws: {
      resources: instance.ws.resources.map(reportedResource),
    },
  };
  return { reported, analysed };
}

/**
 * The estate's analysis from its instances' shares (in instance order), as the report needs it: the zones'
 * inventories, notes and the per-instance zone lists are dropped once the split zones are joined.
 */
export function joinForReport(kept: readonly AnalysedForReport[], opts: EstateAnalyzeOptions): { instances: ReportedInstance[]; analysis: EstateReportAnalysis } {
  const joined = joinInstances(
    kept.map((k) => k.analysed),
    opts,
  );
  return {
    instances: kept.map((k) => k.reported),
    analysis: {
      instances: joined.instances.map((i) => ({ root: i.root, workspace: i.workspace, migratedZones: i.migratedZones })),
      zones: joined.zones.map((z) => ({ zone: z.zone })),
      findings: joined.findings,
    },
  };
}
