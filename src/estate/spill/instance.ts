// One instance's share of a spilled scan (estate/spill/scan.ts), written where it is analysed (this thread
// or a root worker, estate/parallel/): its resources, its zones' entries and inventories and its findings
// (sorted: one run) go to record files, each item already in the JSON report's text (so that text is made
// by the builders, in parallel, not by the thread writing the report after them); what is kept is what the
// split-zone join and the report's head need (zone stubs with their id, root and workspace; the order keys of
// the RULESET_ID_UNKNOWN findings the join may drop), and where each list sits in the files.
import { findingOrderKey, LAST_SEVERITY, sortFindings } from "../../core/findings.js";
import { reportItemJson } from "../../render/json.js";
import type { Finding, Severity } from "../../core/model.js";
import { reportedResource } from "../../core/report.js";
import type { AnalysedInstance } from "../analyze.js";
import type { EstateAnalyzeOptions } from "../analyze.js";
import type { EstateInstance } from "../load.js";
import type { ReportedInstance } from "../report.js";
import { analyseForReport } from "../stream.js";
import { toBytes } from "../../terraform/parse-pool/clone.js";
import { findingRecord } from "./finding-record.js";
import type { RecordFile, Span } from "./records.js";

/** Kept in memory of a finding the join may drop: every other finding is spilled. */
export const JOIN_FILTERED = "RULESET_ID_UNKNOWN";

/** The record files one writer (this thread, or one worker) appends to. */
export interface SpillFiles {
  resources: RecordFile;
  zones: RecordFile;
  findings: RecordFile;
  inventories: RecordFile;
}

export interface SpilledInstance {
  reported: ReportedInstance;
  /** Its zones are stubs (zoneId, root, workspace); an inventory with a span in `inventories` is on disk. */
  analysed: AnalysedInstance;
  /** Each zone's entry, in the order of `analysed.instance.analysis.zones`. */
  zones: Span[];
  /** Each zone's inventory; null: it could not be serialized exactly and stays in `analysed`. */
  inventories: (Span | null)[];
  resources: Span;
  resourceCount: number;
  /** The instance's sorted findings (all but JOIN_FILTERED). */
  run: Span;
  /**
   * Each JOIN_FILTERED finding's text, in the order of `analysed.instance.analysis.findings`, which keeps
   * only their order keys (what the join filters and sorts by). A zone's finding of this kind is ~1 KB of
   * message and commands: kept whole, one per zone, they were ~30 MB of a 100 MB tree's ~290 MB peak RSS.
   */
  kept: Span[];
  /** Where the run's findings of the last severity (core/findings.ts LAST_SEVERITY) start (`run.end`: none). */
  runTail: number;
  runCount: number;
  severities: Severity[];
}

/** Analyses one instance and writes its lists to `files` (each flushed, so another thread can read them). */
export function spillInstance(instance: EstateInstance, analyze: EstateAnalyzeOptions, files: SpillFiles): SpilledInstance {
  const { reported, analysed } = analyseForReport(instance, analyze);
  const resourcesStart = files.resources.offset;
  for (const r of reported.ws.resources) files.resources.append(reportItemJson({ ...reportedResource(r), root: reported.root, workspace: reported.workspace }));
  const resources = { start: resourcesStart, end: files.resources.offset };
  const zones: Span[] = [];
  const inventories: (Span | null)[] = [];
  for (const z of analysed.instance.analysis.zones) {
    zones.push(files.zones.append(reportItemJson(z.zone)));
    z.zone = { zoneId: z.zone.zoneId, root: z.zone.root, workspace: z.zone.workspace } as typeof z.zone;
    z.findings = [];
    z.rulesetNotes = [];
    z.rulesetTodos = {};
    const bytes = toBytes(z.inventory);
    inventories.push(bytes === null ? null : files.inventories.appendBytes(bytes));
  }
  const findings = analysed.instance.analysis.findings;
  const spilled = sortFindings(findings.filter((f) => f.code !== JOIN_FILTERED));
  const severities = [...new Set(spilled.map((f) => f.severity))];
  const start = files.findings.offset;
  let tail = -1;
  for (const f of spilled) {
    if (tail < 0 && f.severity === LAST_SEVERITY) tail = files.findings.offset;
    files.findings.append(findingRecord(f));
  }
  const run = { start, end: files.findings.offset };
  // After the run, outside its span: the merge never reads these as records.
  const joinFiltered = findings.filter((f) => f.code === JOIN_FILTERED);
  const kept = joinFiltered.map((f) => files.findings.append(reportItemJson(f)));
  // Order keys stand in for the findings, as stubs stand in for the zones above; the scan reads each one's
  // text back by its span in `kept`.
  analysed.instance.analysis.findings = joinFiltered.map((f) => findingOrderKey(f) as Finding);
  const reportedKept: ReportedInstance = { root: reported.root, workspace: reported.workspace, stateFiles: reported.stateFiles, ws: { resources: [] } };
  return {
    reported: reportedKept,
    analysed,
    zones,
    inventories,
    resources,
    resourceCount: reported.ws.resources.length,
    run,
    kept,
    runTail: tail < 0 ? run.end : tail,
    runCount: spilled.length,
    severities,
  };
}
