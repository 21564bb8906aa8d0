// What `scan` reads and analyses: offline, the estate is analysed while it loads (estate/scan.ts), so an
// instance's configuration, state and domain inventory are dropped once its share of the report is kept,
// and that share's big lists (resources, zones, findings) wait on disk (estate/spill) until the report is
// written; `--online` needs every instance's domain twice (before and after the service's answers): the
// whole estate is loaded first, as plan and gate do. Same report either way.
import type { AnalyzeOptions } from "../core/analyze.js";
import type { Report, Severity, StreamedReport } from "../core/model.js";
import { analyzeEstateOnline } from "../estate/online.js";
import { buildEstateReport, instanceInputs } from "../estate/report.js";
import { scanEstate, type EstateScanOptions } from "../estate/scan.js";
import { scanEstateSpilled } from "../estate/spill/scan.js";
import { createSpillDir, type SpillDir } from "../estate/spill/temp-dir.js";
import type { OnlineSession } from "../online/session.js";
import type { EstateRun } from "./estate-run.js";
import { relativeRoot, toolVersion } from "./io.js";
import type { CommonArgs } from "./options.js";
import { boundHeapGrowth, scavengeAloneWhenCoresBusy } from "./v8-heap.js";
import { loadCliEstate, rulesetRootsOf, scanCliEstate } from "./workspace.js";

/** A scan's report, what --fail-on needs of it, and every root's path (this shard's or not). */
export interface ScanOutcome {
  /** Its lists may be read back from disk as they are walked: `wholeReport` (core/report.ts) holds them. */
  report: StreamedReport;
  severities: ReadonlySet<Severity>;
  allRootPaths: string[];
  /** Lets go of what the report's lists are read from (call once it is written). */
  dispose(): void;
}

/** `gate` (offline only): takes what `gate` checks of each instance (estate/scan.ts). */
export async function scanCliReport(
  argv: CommonArgs,
  cwd: string,
  run: EstateRun,
  options: AnalyzeOptions,
  session: OnlineSession | null,
  gate?: EstateScanOptions["gate"],
): Promise<ScanOutcome> {
  if (session !== null) {
    const estate = await loadCliEstate(argv, cwd, run);
    const { analysis, decorate } = await analyzeEstateOnline(instanceInputs(estate.instances), { ...options, rulesetRoots: rulesetRootsOf(argv, estate) }, session);
    const report = buildEstateReport({ version: toolVersion(), root: relativeRoot(estate.base), instances: estate.instances, analysis, errors: estate.errors });
    decorate(report);
    return inMemory(report, estate.allRootPaths);
  }
  const dir = spillDir();
  if (dir === null) {
    const { report, allRootPaths } = await scanCliEstate(argv, cwd, run, options, (opts) => scanEstate({ ...opts, ...(gate ? { gate } : {}) }));
    return inMemory(report, allRootPaths);
  }
  // The live heap stays small from here on: V8 need not let the heap grow to 4x it.
  boundHeapGrowth();
  try {
    // This thread and its root workers build the instances: with a builder per core, scavenges run alone.
    const spill = { onRootWorkers: (count: number) => scavengeAloneWhenCoresBusy(count + 1) };
    const spilled = await scanCliEstate(argv, cwd, run, options, (opts) => scanEstateSpilled({ ...opts, ...(gate ? { gate } : {}) }, dir.path, spill));
    return {
      report: spilled.report,
      severities: spilled.severities,
      allRootPaths: spilled.allRootPaths,
      dispose: () => {
        spilled.close();
        dir.remove();
      },
    };
  } catch (e) {
    dir.remove();
    throw e;
  }
}

/** The temporary directory the report's lists go to; none (the report stays in memory) when it cannot be made. */
function spillDir(): SpillDir | null {
  try {
    return createSpillDir();
  } catch {
    return null;
  }
}

function inMemory(report: Report, allRootPaths: string[]): ScanOutcome {
  return { report, severities: new Set(report.findings.map((f) => f.severity)), allRootPaths, dispose: () => undefined };
}
