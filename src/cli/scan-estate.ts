// What `scan` reads and analyses: offline, the estate is analysed while it loads (estate/scan.ts), so an
// instance's configuration, state and domain inventory are dropped once its share of the report is kept;
// `--online` needs every instance's domain twice (before and after the service's answers): the whole
// estate is loaded first, as plan and gate do. Same report either way.
import type { AnalyzeOptions } from "../core/analyze.js";
import type { Report } from "../core/model.js";
import { analyzeEstateOnline } from "../estate/online.js";
import { buildEstateReport, instanceInputs } from "../estate/report.js";
import type { OnlineSession } from "../online/session.js";
import type { EstateRun } from "./estate-run.js";
import { relativeRoot, toolVersion } from "./io.js";
import type { CommonArgs } from "./options.js";
import { loadCliEstate, rulesetRootsOf, scanCliEstate } from "./workspace.js";

/** The scan report of the estate under the paths, and every root's path (this shard's or not). */
export async function scanCliReport(argv: CommonArgs, cwd: string, run: EstateRun, options: AnalyzeOptions, session: OnlineSession | null): Promise<{ report: Report; allRootPaths: string[] }> {
  if (session !== null) {
    const estate = await loadCliEstate(argv, cwd, run);
    const { analysis, decorate } = await analyzeEstateOnline(instanceInputs(estate.instances), { ...options, rulesetRoots: rulesetRootsOf(argv, estate) }, session);
    const report = buildEstateReport({ version: toolVersion(), root: relativeRoot(estate.base), instances: estate.instances, analysis, errors: estate.errors });
    decorate(report);
    return { report, allRootPaths: estate.allRootPaths };
  }
  return scanCliEstate(argv, cwd, run, options);
}
