// The estate options of the reporting commands (scan, gate, plan): `--pull-state` (with `--jobs` and
// `--terraform-bin`), `--shard K/N` and `--summary-file FILE`. Parsing and the small glue between the CLI
// and the library (src/estate/pull-state.ts, src/core/shard.ts, src/estate/run-summary.ts) live here, so
// each command adds one line to its builder and a few to its handler.
import type { Argv } from "yargs";
import type { FailOn, InputError, Report } from "../core/model.js";
import { inShard, parseShardSpec, shardOfRoot, ShardSpecError, type ShardSpec } from "../core/shard.js";
import { DEFAULT_PULL_JOBS, pullErrorToInputError, pullStates, type PullRoot } from "../estate/pull-state.js";
import { buildRunSummary, renderRunSummary } from "../estate/run-summary.js";
import type { StateRead } from "../terraform/state/v4.js";
import { CliError } from "./errors.js";
import { writeReportFile } from "./io.js";

export interface EstateRunArgs {
  "pull-state"?: boolean;
  jobs?: number;
  "terraform-bin"?: string;
  shard?: string;
  "summary-file"?: string;
}

export function withEstateOptions<T>(y: Argv<T>) {
  return y
    .option("pull-state", {
      type: "boolean",
      default: false,
      describe: "read each root's live state: `workspace list`, then `state pull` per workspace (TF_WORKSPACE; nothing written)",
    })
    .option("jobs", { type: "number", default: DEFAULT_PULL_JOBS, describe: "with --pull-state: how many roots are read at once" })
    .option("terraform-bin", { type: "string", default: "terraform", describe: "with --pull-state: terraform, tofu, terragrunt, or a path to one" })
    .option("shard", { type: "string", describe: "K/N: keep only the roots of shard K of N (stable hash of each root's path), for a CI matrix" })
    .option("summary-file", { type: "string", describe: "FILE: one JSON entry per root and workspace (Terragrunt --report-file shape)" });
}

export interface EstateRun {
  shard: ShardSpec | null;
  pull: { bin: string; jobs: number } | null;
  summaryFile: string | null;
  started: Date;
}

/** Validates the estate options before anything is read (bad values are usage errors, exit 2). */
export function parseEstateRun(argv: EstateRunArgs): EstateRun {
  let shard: ShardSpec | null = null;
  if (argv.shard !== undefined) {
    try {
      shard = parseShardSpec(String(argv.shard));
    } catch (e) {
      if (e instanceof ShardSpecError) throw new CliError(e.message);
      throw e;
    }
  }
  const jobs = argv.jobs ?? DEFAULT_PULL_JOBS;
  if (!Number.isInteger(jobs) || jobs < 1) throw new CliError(`--jobs ${String(argv.jobs)}: expected a whole number of at least 1`);
  const bin = argv["terraform-bin"] ?? "terraform";
  if (bin.trim() === "") throw new CliError("--terraform-bin: expected terraform, tofu, terragrunt or a path");
  if (argv["summary-file"] === "") throw new CliError("--summary-file: expected a file name");
  return { shard, pull: argv["pull-state"] ? { bin, jobs } : null, summaryFile: argv["summary-file"] ?? null, started: new Date() };
}

/** `--shard`: whether a root (path relative to the report's root) is this run's. */
export function shardFilter(run: EstateRun): ((rootPath: string) => boolean) | undefined {
  const shard = run.shard;
  return shard ? (rootPath) => inShard(rootPath, shard) : undefined;
}

/** A state read by `--pull-state`, as the estate loader takes states whose owner is known. */
export interface PulledOwnedState {
  root: string;
  workspace: string;
  label: string;
  state: StateRead;
}

/** `--pull-state`: every workspace's state of `roots` (this shard's), and the roots that failed as input errors. */
export async function pullRootStates(run: EstateRun, roots: readonly PullRoot[], cwd: string): Promise<{ states: PulledOwnedState[]; errors: InputError[] }> {
  if (!run.pull) return { states: [], errors: [] };
  const out = await pullStates({ roots, bin: run.pull.bin, jobs: run.pull.jobs, cwd });
  return {
    states: out.states.flatMap((s) => (s.state ? [{ root: s.root, workspace: s.workspace, label: s.source, state: s.state }] : [])),
    errors: out.errors.map(pullErrorToInputError),
  };
}

/** The report as this run gives it: with `shard` recorded when the run is one shard of a split. */
export function recordShard<R extends object>(run: EstateRun, report: R): R {
  return run.shard ? { ...report, shard: { ...run.shard } } : report;
}

/** `--summary-file`: one entry per instance; `allRootPaths` are every root under PATH (other shards' too). */
export async function writeSummaryFile(run: EstateRun, report: Report, failOn: FailOn, allRootPaths: readonly string[]): Promise<void> {
  if (run.summaryFile === null) return;
  const shard = run.shard;
  const excluded = shard ? allRootPaths.filter((p) => !inShard(p, shard)).map((p) => ({ path: p, shard: { index: shardOfRoot(p, shard.count), count: shard.count } })) : [];
  const entries = buildRunSummary({ report, failOn, started: run.started, ended: new Date(), excluded, ...(shard ? { shard } : {}) });
  await writeReportFile(run.summaryFile, renderRunSummary(entries));
}
