// The scan report of an estate, read and analysed one instance at a time (estate/stream.ts): what `scan`
// does offline, for a CI script or a bot to call. Memory follows the report, not the estate: an instance's
// configuration, state and domain inventory go once its share of the report is kept.
import type { AnalyzeOptions } from "../core/analyze.js";
import type { Report } from "../core/model.js";
import { gateShareOf, type GateShare } from "./gate-share.js";
import { streamEstate, type EstateOptions } from "./load.js";
import { buildEstateReport } from "./report.js";
import { analyseForReport, joinForReport } from "./stream.js";

export interface EstateScanOptions extends EstateOptions {
  /** What each instance is analysed with (zone plans, ruleset ids, service configurations, provider major). */
  analyze: AnalyzeOptions;
  /**
   * `--ruleset-root ZONE_ID=ROOT` for zones split across roots, given the roots the estate has (so a caller
   * can check its input against them and throw on a typo). Absent: the default root for each.
   */
  rulesetRoots?: (roots: readonly { path: string }[]) => Record<string, string>;
  /** The tool version the report names. */
  version: string;
  /** The report's `root` (paths in it are relative to the estate's base); absent: none. */
  root?: (base: string) => string;
  /**
   * Takes what `gate` checks of each instance (estate/gate-share.ts, estate/gate-stream.ts), in instance
   * order, wherever the instance was built.
   */
  gate?: (share: GateShare) => void;
}

/** The estate's scan report, and every root's path (this shard's or not). */
export async function scanEstate(opts: EstateScanOptions): Promise<{ report: Report; allRootPaths: string[] }> {
  const { analyze, rulesetRoots, version, root, gate, ...load } = opts;
  const streamed = await streamEstate(load, (instance) => {
    const kept = analyseForReport(instance, analyze);
    gate?.(gateShareOf(instance, kept.analysed));
    return kept;
  });
  const { instances, analysis } = joinForReport(streamed.instances, { ...analyze, rulesetRoots: rulesetRoots ? rulesetRoots(streamed.roots) : {} });
  const report = buildEstateReport({ version, ...(root ? { root: root(streamed.base) } : {}), instances, analysis, errors: streamed.errors });
  return { report, allRootPaths: streamed.allRootPaths };
}
