// `--summary-file FILE`: one entry per (root, workspace) instance saying whether it passed, modelled on the
// JSON run report Terragrunt writes with `--report-file` (`[{ "Name", "Started", "Ended", "Result",
// "Reason", "Cause" }]`), so a pipeline that already reads Terragrunt's report reads this one the same way.
// Pure: the command writes the file.
//
// Mirrors Terragrunt: `Name` (the root's path, as Terragrunt names a unit by its path relative to the
// working directory), `Started`/`Ended` (RFC 3339; here the whole run's, as every instance is analysed in
// one process), `Result` (`succeeded`, `failed`, `excluded`: Terragrunt's values), `Reason` (`run error`
// is Terragrunt's), `Cause`. Added by this tool: `Workspace`, the `Reason` values `gate failed` and
// `shard`, and `Findings` (counts by severity).
import { tripsFailOn } from "../core/findings.js";
import type { FailOn, Finding, InputError, Report } from "../core/model.js";
import { formatShardSpec, type ShardSpec } from "../core/shard.js";
import { DEFAULT_WORKSPACE } from "./instances.js";
import { compareRootEntries } from "./merge.js";

export interface RunSummaryEntry {
  Name: string;
  /** null for a root another shard scans: its workspaces were not read. */
  Workspace: string | null;
  Started: string;
  Ended: string;
  Result: "succeeded" | "failed" | "excluded";
  /** Absent on success. */
  Reason?: "run error" | "gate failed" | "shard";
  /** One line: the first unreadable input, the blocking finding codes, or the shard that scans the root. */
  Cause?: string;
  Findings?: { error: number; warning: number; info: number };
}

export interface RunSummaryInput {
  report: Report & { roots?: { path: string; workspace: string }[] };
  failOn: FailOn;
  started: Date;
  ended: Date;
  /** Roots left to other shards (`--shard`), with the shard that scans each. */
  excluded?: { path: string; shard: ShardSpec }[];
  /** This run's shard, to say so in an excluded root's cause. */
  shard?: ShardSpec;
}

export function buildRunSummary(input: RunSummaryInput): RunSummaryEntry[] {
  const { report, failOn } = input;
  const times = { Started: input.started.toISOString(), Ended: input.ended.toISOString() };
  const reported = report.roots ?? [{ path: ".", workspace: DEFAULT_WORKSPACE }];
  // A workspace whose own input could not be read has no instance in the report: it still gets its entry.
  const failedOnly = report.errors
    .filter((e): e is InputError & { root: string; workspace: string } => e.root !== undefined && e.workspace !== undefined)
    .filter((e, i, all) => !reported.some((r) => r.path === e.root && r.workspace === e.workspace) && all.findIndex((o) => o.root === e.root && o.workspace === e.workspace) === i)
    .map((e) => ({ path: e.root, workspace: e.workspace }));
  // The reports' order of roots (comparePaths: `live/a/b` before `live/a-b`), then workspaces: as `merge` orders them.
  const instances = [...reported, ...failedOnly].sort(compareRootEntries);
  const rootPaths = [...new Set(instances.map((i) => i.path))];
  const errorsOf = attributeErrors(report.errors.filter((e) => e.workspace === undefined), rootPaths);
  const entries: RunSummaryEntry[] = instances.map((inst) => {
    const findings = report.findings.filter((f) => belongs(f, inst));
    const counts = { error: 0, warning: 0, info: 0 };
    for (const f of findings) counts[f.severity]++;
    const base = { Name: inst.path, Workspace: inst.workspace, ...times };
    const own = report.errors.filter((e) => e.workspace !== undefined && e.root === inst.path && e.workspace === inst.workspace);
    const errors = [...own, ...(errorsOf.get(inst.path) ?? []), ...(errorsOf.get(null) ?? [])];
    if (errors.length > 0) {
      const e = errors[0]!;
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
      return { ...base, Result: "failed", Reason: "run error", Cause: `${e.file}${e.line ? `:${e.line}` : ""}: ${e.message}${more}`, Findings: counts };
    }
    const blocking = findings.filter((f) => tripsFailOn(f.severity, failOn));
    if (blocking.length > 0) {
      return { ...base, Result: "failed", Reason: "gate failed", Cause: `${blocking.length} finding${blocking.length === 1 ? "" : "s"} at or above --fail-on ${failOn}: ${codes(blocking)}`, Findings: counts };
    }
    return { ...base, Result: "succeeded", Findings: counts };
  });
  for (const x of input.excluded ?? []) {
    entries.push({
      Name: x.path,
      Workspace: null,
      ...times,
      Result: "excluded",
      Reason: "shard",
      Cause: `scanned by shard ${formatShardSpec(x.shard)}${input.shard ? ` (this run is shard ${formatShardSpec(input.shard)})` : ""}`,
    });
  }
  return entries;
}

/** A finding of an instance; one without a root (a whole-run finding) counts for every instance. */
function belongs(f: Finding & { root?: string; workspace?: string }, inst: { path: string; workspace: string }): boolean {
  if (f.root === undefined) return true;
  return f.root === inst.path && (f.workspace ?? DEFAULT_WORKSPACE) === inst.workspace;
}

/**
 * Input errors by the root whose directory holds the file (the deepest one); an error in no root's
 * directory (a module two roots share, a --state file elsewhere) is under `null`: it fails every instance,
 * since any of them may have read it.
 */
function attributeErrors(errors: InputError[], rootPaths: string[]): Map<string | null, InputError[]> {
  const byDepth = [...rootPaths].sort((a, b) => b.length - a.length);
  const out = new Map<string | null, InputError[]>();
  for (const e of errors) {
    const file = e.file.replace(/\\/g, "/");
    const owner = byDepth.find((p) => p === "." ? !file.startsWith("../") : file === p || file.startsWith(`${p}/`)) ?? null;
    out.set(owner, [...(out.get(owner) ?? []), e]);
  }
  return out;
}

function codes(findings: Finding[]): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  return [...counts].map(([c, n]) => (n > 1 ? `${c} x${n}` : c)).join(", ");
}

export function renderRunSummary(entries: RunSummaryEntry[]): string {
  return JSON.stringify(entries, null, 2) + "\n";
}
