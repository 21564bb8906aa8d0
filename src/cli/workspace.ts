// How every reporting command reads its inputs: the Terraform workspace, with the progress bar on
// stderr for long scans and the hidden --full-parse escape hatch.
import { loadWorkspace, type Workspace } from "../terraform/workspace.js";
import { loadEstate, type Estate, type EstateOptions } from "../estate/load.js";
import { pullRootStates, shardFilter, type EstateRun } from "./estate-run.js";
import { readStdin } from "./io.js";
import { parsePairs, variableArgs, type CommonArgs } from "./options.js";
import { CliError } from "./errors.js";
import { ProgressBar } from "./progress.js";

export async function loadCliWorkspace(argv: CommonArgs, cwd: string = process.cwd()): Promise<Workspace> {
  const bar = new ProgressBar({ quiet: argv.quiet });
  try {
    return await loadWorkspace({
      paths: argv.paths,
      statePaths: argv.state,
      cwd,
      readStdin,
      fullParse: argv["full-parse"] === true,
      variables: variableArgs(argv),
      onProgress: (p) => bar.update(p),
    });
  } finally {
    bar.done();
  }
}

/** The estate the reporting commands read: every root and workspace under the paths, one instance each. */
export async function loadCliEstate(argv: CommonArgs, cwd: string = process.cwd(), run: EstateRun | null = null): Promise<Estate> {
  const bar = new ProgressBar({ quiet: argv.quiet });
  try {
    return await loadEstate({
      paths: argv.paths,
      statePaths: argv.state,
      cwd,
      readStdin,
      fullParse: argv["full-parse"] === true,
      variables: variableArgs(argv),
      onProgress: (p) => bar.update(p),
      ...(run ? estateRunOptions(run, cwd) : {}),
    });
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
export function rulesetRootsOf(argv: CommonArgs, estate: Estate): Record<string, string> {
  const pairs = parsePairs(argv["ruleset-root"] ?? [], "ruleset-root");
  const known = new Set(estate.roots.map((r) => r.path));
  for (const [zone, root] of Object.entries(pairs)) {
    const normalized = root.replace(/\/+$/, "").replace(/^\.\//, "") || ".";
    if (!known.has(normalized)) throw new CliError(`--ruleset-root ${zone}=${root}: not a root module of this run (roots: ${[...known].join(", ")})`);
    pairs[zone] = normalized;
  }
  return pairs;
}
