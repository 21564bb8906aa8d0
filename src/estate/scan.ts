// The scan report of an estate, read and analysed one instance at a time (estate/stream.ts): what `scan`
// does offline, for a CI script or a bot to call. Memory follows the report, not the estate: an instance's
// configuration, state and domain inventory go once its share of the report is kept.
import type { AnalyzeOptions } from "../core/analyze.js";
import type { Report } from "../core/model.js";
import type { AnalysedInstance } from "./analyze.js";
import { streamEstate, type EstateInstance, type EstateOptions } from "./load.js";
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
   * Sees each instance once it is built and analysed, before it is let go (what `gate` checks per instance:
   * estate/gate-stream.ts). Synchronous: it keeps what it needs of the instance, not the instance.
   */
  eachInstance?: (instance: EstateInstance, analysed: AnalysedInstance) => void;
}

/** The estate's scan report, and every root's path (this shard's or not). */
export async function scanEstate(opts: EstateScanOptions): Promise<{ report: Report; allRootPaths: string[] }> {
  const { analyze, rulesetRoots, version, root, eachInstance, ...load } = opts;
  const streamed = await streamEstate(load, (instance) => {
    const kept = analyseForReport(instance, analyze);
    eachInstance?.(instance, kept.analysed);
    return kept;
  });
  const { instances, analysis } = joinForReport(streamed.instances, { ...analyze, rulesetRoots: rulesetRoots ? rulesetRoots(streamed.roots) : {} });
  const report = buildEstateReport({ version, ...(root ? { root: root(streamed.base) } : {}), instances, analysis, errors: streamed.errors });
  return { report, allRootPaths: streamed.allRootPaths };
}
