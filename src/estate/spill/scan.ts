// The scan report of an estate with its big lists on disk (issue #17): as each instance is analysed, its
// resources, its zones' entries and its findings (sorted: one run per instance) go to record files in a
// private temporary directory; memory keeps what the split-zone join needs (each zone's id, root,
// workspace and inventory, the RULESET_ID_UNKNOWN findings the join may drop) and the counts. The lists are
// read back when the report is written: resources in instance order, zones in the join's order (each
// entry read by its span, a split zone's join applied to it), findings as a k-way merge of the runs.
// Same report as estate/scan.ts `scanEstate`, byte for byte.
import { compareFindings, sortFindings } from "../../core/findings.js";
import type { Finding, Report, ReportList, ReportResource, Severity, StreamedReport, ZoneReport } from "../../core/model.js";
import { reportedResource } from "../../core/report.js";
import { joinInstances, patchZone, type AnalysedInstance, type ZonePatch } from "../analyze.js";
import { streamEstate } from "../load.js";
import { buildEstateReport, type ReportedInstance } from "../report.js";
import type { EstateScanOptions } from "../scan.js";
import { analyseForReport } from "../stream.js";
import { RecordFile, type Span } from "./records.js";
import { fromBytes, toBytes } from "./clone.js";
import { mergeSorted } from "./kmerge.js";
import path from "node:path";

/** Kept in memory of a finding the join may drop: every other finding is spilled. */
const JOIN_FILTERED = "RULESET_ID_UNKNOWN";

export interface SpilledScan {
  /** The report; its resources, zones and findings are read from disk each time they are walked. */
  report: StreamedReport;
  /** Every root's path (this shard's or not). */
  allRootPaths: string[];
  /** The severities of the findings (what --fail-on needs without walking them). */
  severities: ReadonlySet<Severity>;
  /** The report with its lists in memory (for the formats and files that need them whole). */
  materialize(): Report;
  /** Closes the record files (the directory is the caller's). */
  close(): void;
}

/** Scans the estate, spilling the report's big lists into `dir` (a directory the caller made and removes). */
export async function scanEstateSpilled(opts: EstateScanOptions, dir: string): Promise<SpilledScan> {
  const { analyze, rulesetRoots, version, root, eachInstance, ...load } = opts;
  const files = {
    resources: new RecordFile(path.join(dir, "resources.jsonl")),
    zones: new RecordFile(path.join(dir, "zones.jsonl")),
    findings: new RecordFile(path.join(dir, "findings.jsonl")),
    inventories: new RecordFile(path.join(dir, "inventories.bin")),
  };
  try {
    const zoneSpans = new Map<ZoneReport, Span>();
    const runs: Span[] = [];
    const severities = new Set<Severity>();
    let resourceCount = 0;
    let spilledFindings = 0;
    const streamed = await streamEstate(load, (instance) => {
      const { reported, analysed } = analyseForReport(instance, analyze);
      eachInstance?.(instance, analysed);
      for (const r of reported.ws.resources) files.resources.append({ ...reportedResource(r), root: reported.root, workspace: reported.workspace });
      resourceCount += reported.ws.resources.length;
      spillZones(analysed, files.zones, zoneSpans, files.inventories);
      const findings = analysed.instance.analysis.findings;
      const spilled = sortFindings(findings.filter((f) => f.code !== JOIN_FILTERED));
      for (const f of spilled) severities.add(f.severity);
      const start = files.findings.offset;
      for (const f of spilled) files.findings.append(f);
      runs.push({ start, end: files.findings.offset });
      spilledFindings += spilled.length;
      analysed.instance.analysis.findings = findings.filter((f) => f.code === JOIN_FILTERED);
      const kept: ReportedInstance = { root: reported.root, workspace: reported.workspace, stateFiles: reported.stateFiles, ws: { resources: [] } };
      return { reported: kept, analysed };
    });
    const patches = new Map<ZoneReport, ZonePatch>();
    const joined = joinInstances(
      streamed.instances.map((k) => k.analysed),
      { ...analyze, rulesetRoots: rulesetRoots ? rulesetRoots(streamed.roots) : {} },
      (zone, p) => void patches.set(zone, p),
    );
    for (const f of joined.findings) severities.add(f.severity);
    const head = buildEstateReport({
      version,
      ...(root ? { root: root(streamed.base) } : {}),
      instances: streamed.instances.map((k) => k.reported),
      analysis: { instances: joined.instances.map((i) => ({ root: i.root, workspace: i.workspace, migratedZones: i.migratedZones })), zones: [], findings: [] },
      errors: streamed.errors,
    });
    const stubs = joined.zones.map((z) => z.zone);
    const inMemory = joined.findings;
    const report: StreamedReport = {
      ...head,
      resources: list<ReportResource>(resourceCount, () => files.resources.records({ start: 0, end: files.resources.offset })),
      zones: list<ZoneReport>(stubs.length, function* () {
        for (const stub of stubs) {
          const zone = files.zones.read<ZoneReport>(zoneSpans.get(stub)!);
          const p = patches.get(stub);
          if (p) patchZone(zone, p);
          yield zone;
        }
      }),
      findings: list<Finding>(spilledFindings + inMemory.length, () => mergeSorted([...runs.map((run) => files.findings.records<Finding>(run)), inMemory], compareFindings)),
    };
    const close = () => Object.values(files).forEach((f) => f.close());
    return {
      report,
      allRootPaths: streamed.allRootPaths,
      severities,
      materialize: () => ({ ...report, resources: [...report.resources], zones: [...report.zones], findings: [...report.findings] }),
      close,
    };
  } catch (e) {
    Object.values(files).forEach((f) => f.close());
    throw e;
  }
}

/**
 * Each zone's entry goes to disk; what stays is a stub with its id, root and workspace (the join's keys),
 * not its findings (the instance's list has them). Its inventory, which only the join of a split zone reads,
 * goes to disk too and is read back when read (kept in memory when it cannot be serialized exactly).
 */
function spillZones(analysed: AnalysedInstance, file: RecordFile, spans: Map<ZoneReport, Span>, inventories: RecordFile): void {
  for (const z of analysed.instance.analysis.zones) {
    const span = file.append(z.zone);
    const stub = { zoneId: z.zone.zoneId, root: z.zone.root, workspace: z.zone.workspace } as ZoneReport;
    spans.set(stub, span);
    z.zone = stub;
    z.findings = [];
    z.rulesetNotes = [];
    z.rulesetTodos = {};
    const bytes = toBytes(z.inventory);
    if (bytes !== null) readBackWhenRead(z, "inventory", inventories, inventories.appendBytes(bytes));
  }
}

/** Replaces `obj[key]` with a getter that reads the value back from `file` once, when first read. */
function readBackWhenRead<O extends object, K extends keyof O>(obj: O, key: K, file: RecordFile, span: Span): void {
  Object.defineProperty(obj, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = fromBytes<O[K]>(file.readBytes(span));
      Object.defineProperty(obj, key, { value, configurable: true, enumerable: true, writable: true });
      return value;
    },
    set(value: O[K]) {
      Object.defineProperty(obj, key, { value, configurable: true, enumerable: true, writable: true });
    },
  });
}

/** A list of `length` items produced afresh by `items` each time it is walked. */
function list<T>(length: number, items: () => Iterable<T>): ReportList<T> {
  return { length, [Symbol.iterator]: () => items()[Symbol.iterator]() };
}
