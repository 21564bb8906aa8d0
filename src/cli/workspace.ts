// How every reporting command reads its inputs: the estate (every root and workspace), with the progress bar on
// stderr for long scans and the hidden --full-parse escape hatch.
import type { Progress, WorkspaceOptions } from "../terraform/inventory/workspace.js";
import { loadEstate, type Estate, type EstateOptions } from "../estate/load.js";
import { scanEstate, type EstateScanOptions } from "../estate/scan.js";
import type { AnalyzeOptions } from "../core/analyze.js";
import type { Report } from "../core/model.js";
import { pullRootStates, shardFilter, type EstateRun } from "./estate-run.js";
import { readStdin, relativeRoot, toolVersion } from "./io.js";
import { parsePairs, variableArgs, type CommonArgs } from "./options.js";
import { normalizeRootPath } from "../core/shard.js";
import { CliError } from "./errors.js";
import { ProgressBar } from "./progress.js";

/** The estate the reporting commands read: every root and workspace under the paths, one instance each. */
export async function loadCliEstate(argv: CommonArgs, cwd: string = process.cwd(), run: EstateRun | null = null): Promise<Estate> {
  return withProgressBar(argv, (onProgress) => loadEstate({ ...loadOptions(argv, cwd), onProgress, ...(run ? estateRunOptions(run, cwd) : {}) }));
}

/**
 * The scan report, the estate read and analysed one instance at a time (estate/scan.ts); with the same progress
 * bar, options, shard and pulled states as loadCliEstate, and --ruleset-root checked against its roots.
 */
export async function scanCliEstate<T = { report: Report; allRootPaths: string[] }>(
  argv: CommonArgs,
  cwd: string,
  run: EstateRun | null,
  analyze: AnalyzeOptions,
  scan: (opts: EstateScanOptions) => Promise<T> = scanEstate as (opts: EstateScanOptions) => Promise<T>,
): Promise<T> {
  return withProgressBar(argv, (onProgress) =>
    scan({
      ...loadOptions(argv, cwd),
      onProgress,
      ...(run ? estateRunOptions(run, cwd) : {}),
      analyze,
      rulesetRoots: (roots) => rulesetRootsOf(argv, { roots }),
      version: toolVersion(),
      root: (base) => relativeRoot(base),
    }),
  );
}

/** What the load takes from the command line. */
function loadOptions(argv: CommonArgs, cwd: string): Omit<WorkspaceOptions, "onProgress"> {
  return { paths: argv.paths, statePaths: argv.state, cwd, readStdin, fullParse: argv["full-parse"] === true, variables: variableArgs(argv) };
}

/** Runs a load with the progress bar on stderr, cleared however the load ends. */
async function withProgressBar<T>(argv: CommonArgs, load: (onProgress: (p: Progress) => void) => Promise<T>): Promise<T> {
  const bar = new ProgressBar({ quiet: argv.quiet });
  try {
    return await load((p) => bar.update(p));
  } finally {
    bar.done();
  }
}

/** `--shard` keeps this shard's roots; `--pull-state` reads their live states once they are known. */
function estateRunOptions(run: EstateRun, cwd: string): Pick<EstateOptions, "rootFilter" | "pullStates"> {
  const filter = shardFilter(run);
  return {
    ...(filter ? { rootFilter: filter } : {}),
    ...(run.pull ? { pullStates: (roots: { path: string; dir: string }[]) => pullRootStates(run, roots, cwd) } : {}),
  };
}

/** `--ruleset-root ZONE_ID=ROOT`, each ROOT checked against the estate's roots (a typo must not pass silently). */
export function rulesetRootsOf(argv: CommonArgs, estate: { roots: readonly { path: string }[] }): Record<string, string> {
  const pairs = parsePairs(argv["ruleset-root"] ?? [], "ruleset-root");
  const known = new Set(estate.roots.map((r) => r.path));
  for (const [zone, root] of Object.entries(pairs)) {
    // The one spelling of a root path (also what --shard hashes): `./live/prod/` is `live/prod`.
    const normalized = normalizeRootPath(root);
    if (!known.has(normalized)) throw new CliError(`--ruleset-root ${zone}=${root}: not a root module of this run (roots: ${[...known].join(", ")})`);
    pairs[zone] = normalized;
  }
  return pairs;
}
