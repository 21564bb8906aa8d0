// The scan report of an estate with its big lists on disk (issue #17): as each instance is analysed, its
// resources, its zones' entries and its findings (sorted: one run per instance) go to record files in a
// private temporary directory, each item as the JSON report prints it (estate/spill/instance.ts); memory keeps what the split-zone join needs (each zone's id, root,
// workspace and inventory, the order keys of the RULESET_ID_UNKNOWN findings the join may drop) and the counts. The lists are
// read back when the report is written: resources in instance order, zones in the join's order (each
// entry read by its span, a split zone's join applied to it), findings as a k-way merge of the runs.
// Same report as estate/scan.ts `scanEstate`, byte for byte.
import { LAST_SEVERITY } from "../../core/findings.js";
import { reportItemJson } from "../../render/json.js";
import type { ZoneAnalysis, ZoneInventory } from "../../core/analyze.js";
import type { Finding, Report, ReportList, ReportResource, Severity, StreamedReport, ZoneReport } from "../../core/model.js";
import { joinInstances, patchZone, type AnalysedInstance, type ZonePatch } from "../analyze.js";
import { gateShareOf, type GateShare } from "../gate-share.js";
import { streamEstate } from "../load.js";
import { rootWorkerOffload, rootWorkersChosen } from "../parallel/pool.js";
import { buildEstateReport, type ReportedInstance } from "../report.js";
import type { EstateScanOptions } from "../scan.js";
import { RecordFile, type Span } from "./records.js";
import { fromBytes } from "../../terraform/parse-pool/clone.js";
import { spillInstance, type SpilledInstance, type SpillFiles } from "./instance.js";
import { keyedFindingList, keyedInMemory, mergeFindingRuns, splitRuns, type KeyedFindingList } from "./finding-list.js";
import { startMergeWorker, type OffloadedMerge } from "./merge-offload.js";
import type { TailMerge } from "./merge-tail.js";
import path from "node:path";
import { mapItems } from "../../core/iterate.js";

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

/** A span in one of the writers' record files. */
interface FileSpan {
  file: RecordFile;
  span: Span;
}

/** What is kept of one instance until the report is written. */
interface KeptInstance {
  reported: ReportedInstance;
  analysed: AnalysedInstance;
  resources: FileSpan;
  /** Its findings' run, and where its tail (core/findings.ts LAST_SEVERITY) starts. */
  run: FileSpan & { tail: number };
  /** What `gate` checks of it, when the scan is gated. */
  gate?: GateShare;
}

/** Where the report's lists are written: this thread's files, and each root worker's (estate/parallel/). */
export interface SpillOptions {
  /** Root workers to build instances in (0: none); absent: decided by the estate's size (estate/parallel/pool.ts). */
  workers?: number;
  /** Told how many root workers start, as they start (not called when none does). */
  onRootWorkers?: (count: number) => void;
}

/**
 * Scans the estate, spilling the report's big lists into `dir` (a directory the caller made and removes).
 * Instances without state may be built and spilled by root workers (estate/parallel/), each into its own
 * files in `dir`: the report is the same whoever built what. With `gate`, what gate checks of an instance
 * is taken where it is built, and handed to `gate` in instance order.
 */
export async function scanEstateSpilled(opts: EstateScanOptions, dir: string, spill: SpillOptions = {}): Promise<SpilledScan> {
  const { analyze, rulesetRoots, version, root, gate, ...load } = opts;
  const files = {
    resources: new RecordFile(path.join(dir, "resources.txt")),
    zones: new RecordFile(path.join(dir, "zones.txt")),
    findings: new RecordFile(path.join(dir, "findings.txt")),
    inventories: new RecordFile(path.join(dir, "inventories.bin")),
  };
  const opened: RecordFile[] = Object.values(files);
  try {
    const zoneSpans = new Map<ZoneReport, FileSpan>();
    const severities = new Set<Severity>();
    let resourceCount = 0;
    let spilledFindings = 0;
    /** Where the text of each finding kept in memory as its order key (a JOIN_FILTERED one) is. */
    const keptTexts = new Map<Finding, FileSpan>();
    /** Takes one instance's spilled share (written to `into`) into the scan's bookkeeping. */
    const keep = (s: SpilledInstance, into: SpillFiles, share: GateShare | undefined): KeptInstance => {
      const zones = s.analysed.instance.analysis.zones;
      zones.forEach((z, i) => {
        zoneSpans.set(z.zone, { file: into.zones, span: s.zones[i]! });
        const inventory = s.inventories[i];
        if (inventory) zones[i] = new ZoneOnDisk(z, into.inventories, inventory);
      });
      s.analysed.instance.analysis.findings.forEach((f, i) => keptTexts.set(f, { file: into.findings, span: s.kept[i]! }));
      for (const sev of s.severities) severities.add(sev);
      resourceCount += s.resourceCount;
      spilledFindings += s.runCount;
      return { reported: s.reported, analysed: s.analysed, resources: { file: into.resources, span: s.resources }, run: { file: into.findings, span: s.run, tail: s.runTail }, ...(share ? { gate: share } : {}) };
    };
    const offload = rootWorkerOffload<KeptInstance>(
      { dir, analyze, variables: load.variables ?? { varFiles: [], vars: [] }, cwd: load.cwd, gateShares: gate !== undefined, ...(spill.workers !== undefined ? { workers: spill.workers } : {}), ...(spill.onRootWorkers ? { onStart: spill.onRootWorkers } : {}) },
      keep,
      (f) => opened.push(f),
    );
    const streamed = await streamEstate(
      rootWorkersChosen(spill.workers) ? { ...load, deferReads: "always" } : load,
      (instance) => {
        const spilled = spillInstance(instance, analyze, files);
        return keep(spilled, files, gate ? gateShareOf(instance, spilled.analysed) : undefined);
      },
      offload,
    );
    if (gate) {
      for (const k of streamed.instances) {
        if (!k.gate) throw new Error("gate: an instance was built without what gate checks of it");
        gate(k.gate);
      }
    }
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
    const resourceSpans = streamed.instances.map((k) => k.resources);
    const runs = streamed.instances.map((k) => k.run);
    // Each list is walked as items (the formats that read them) or as the JSON report's text of its items,
    // copied as the builders wrote it (a patched zone, or a finding kept in memory, is printed here).
    const zoneText = (stub: ZoneReport): string => {
      const at = zoneSpans.get(stub)!;
      const p = patches.get(stub);
      return p ? reportItemJson(patchedZone(at.file.text(at.span), p)) : at.file.text(at.span);
    };
    // Spilled findings are merged by their order keys; a finding kept in memory is its own key. More may be
    // merged in after the scan (gate's: KeyedFindingList.withInMemory), each run after the ones before.
    // The JSON report walks resources, zones and findings in that order: as it starts on the resources, the
    // findings' merge starts on a worker (./merge-offload.ts), to run while this thread copies the others.
    // It merges the list made last (the one the report holds); a list of other findings merges here.
    const keptText = (f: Finding): string | null => {
      const at = keptTexts.get(f);
      return at ? at.file.text(at.span) : null;
    };
    const keyed = (run: readonly Finding[]) => keyedInMemory(run, keptText);
    let latest: readonly (readonly Finding[])[] = [inMemory];
    let offloaded: { runs: readonly (readonly Finding[])[]; merge: OffloadedMerge | null } | undefined;
    const startMerge = () => {
      if (offloaded !== undefined) return;
      files.findings.flush();
      const spans = runs.map((r) => ({ path: r.file.path, span: r.span, tail: r.tail }));
      offloaded = { runs: latest, merge: startMergeWorker(dir, spans, latest.map((run) => [...keyed(run)])) };
    };
    /** The worker's merge of `inMemoryRuns`, once: a second JSON report of the same scan merges here. */
    const takeMerge = (inMemoryRuns: readonly (readonly Finding[])[]) => {
      startMerge();
      const taken = offloaded!.runs === inMemoryRuns ? offloaded!.merge : null;
      if (taken === null) offloaded!.merge?.close();
      offloaded!.merge = null;
      return taken;
    };
    const findingsList = (inMemoryRuns: readonly (readonly Finding[])[]): KeyedFindingList => {
      latest = inMemoryRuns;
      const merged = () => mergeFindingRuns(runs, inMemoryRuns.map(keyed));
      const length = inMemoryRuns.reduce((n, run) => n + run.length, spilledFindings);
      // The tail (the last severity's findings), as this thread merges it while the worker is busy.
      const { head: headRuns, tail: tailRuns } = splitRuns(runs);
      const tailOf = (run: readonly Finding[]) => run.filter((f) => f.severity === LAST_SEVERITY);
      const tail: TailMerge = {
        // Read 4 KB at a time per run (most runs' tails are smaller): it runs beside the worker's merge.
        merged: () => mergeFindingRuns(tailRuns, inMemoryRuns.map((run) => keyed(tailOf(run))), 1 << 12),
        afterOthers: headRuns.some((r) => r.span.end > r.span.start) || inMemoryRuns.some((run) => tailOf(run).length < run.length),
        file: path.join(dir, "merged-tail.txt"),
      };
      return {
        ...keyedFindingList(length, merged, () => takeMerge(inMemoryRuns)?.body(merged, tail) ?? null),
        withInMemory: (extra) => findingsList([...inMemoryRuns, extra]),
      };
    };
    const resourceTexts = function* () {
      for (const r of resourceSpans) yield* r.file.texts(r.span, SEQUENTIAL_READ);
    };
    const report: StreamedReport = {
      ...head,
      resources: list(
        resourceCount,
        () => mapItems(resourceTexts(), (text) => JSON.parse(text) as ReportResource),
        () => {
          startMerge();
          return resourceTexts();
        },
      ),
      zones: list(
        stubs.length,
        () => mapItems(stubs, (stub) => JSON.parse(zoneText(stub)) as ZoneReport),
        () => mapItems(stubs, zoneText),
      ),
      findings: findingsList([inMemory]),
    };
    const close = () => {
      offloaded?.merge?.close();
      opened.forEach((f) => f.close());
    };
    return {
      report,
      allRootPaths: streamed.allRootPaths,
      severities,
      materialize: () => ({ ...report, resources: [...report.resources], zones: [...report.zones], findings: [...report.findings] }),
      close,
    };
  } catch (e) {
    opened.forEach((f) => f.close());
    throw e;
  }
}

/**
 * A zone's analysis whose inventory waits in a record file: read back once, when the split-zone join first
 * reads it (most zones are never read back). The getter is the class's: a getter defined on each object
 * (Object.defineProperty) turned every zone's entry into a dictionary-mode object with two closures, ~0.6 KB
 * each, ~8 MB of the main thread's heap on the 100 MB bench tree's 13,721 zones.
 */
class ZoneOnDisk implements ZoneAnalysis {
  zone: ZoneReport;
  findings: Finding[];
  rulesetNotes: string[];
  rulesetTodos: Record<number, string[]>;
  rulesetResourceName: string;
  rulesetId: string | null;
  #inventory: ZoneInventory | null = null;

  /** `z`'s inventory itself is not read (it may be gone: a root worker sends it as null). */
  constructor(
    z: ZoneAnalysis,
    private readonly file: RecordFile,
    private readonly span: Span,
  ) {
    this.zone = z.zone;
    this.findings = z.findings;
    this.rulesetNotes = z.rulesetNotes;
    this.rulesetTodos = z.rulesetTodos;
    this.rulesetResourceName = z.rulesetResourceName;
    this.rulesetId = z.rulesetId;
  }

  get inventory(): ZoneInventory {
    return (this.#inventory ??= fromBytes<ZoneInventory>(this.file.readBytes(this.span)));
  }

  set inventory(value: ZoneInventory) {
    this.#inventory = value;
  }
}

/**
 * Bytes read at a time from a list read in one pass. With 4 KB reads, a 100 MB tree's report spent 0.48 s
 * in the reads' system calls alone (CPU profile of the main thread).
 */
const SEQUENTIAL_READ = 1 << 18;

/** A list of `length` items produced afresh by `items` each time it is walked (and their JSON report text by `texts`). */
function list<T>(length: number, items: () => Iterable<T>, texts: () => Iterable<string>): ReportList<T> {
  return { length, [Symbol.iterator]: () => items()[Symbol.iterator](), jsonTexts: texts };
}

/** A spilled zone entry with its split zone's join applied. */
function patchedZone(text: string, patch: ZonePatch): ZoneReport {
  const zone = JSON.parse(text) as ZoneReport;
  patchZone(zone, patch);
  return zone;
}
