// `cf-waf-migrate merge`: joins the JSON reports of `--shard K/N` runs into the one report a single run of
// the whole estate gives. Pure: the command (src/cli/commands/merge.ts) reads the files.
//
// Why the join is exact: a shard is a set of whole roots (every workspace of a root lands in the same
// shard, src/core/shard.ts), and everything of an instance (its resources, zones, findings, plan steps,
// input errors) is computed from that instance alone. So the union of the shards is the unsharded report
// once every list is put back in the order the report builder gives it: roots by path then workspace,
// items grouped by instance in that order (each shard keeps an instance's items in their own order),
// findings by core/findings.ts `sortFindings`, errors by core/report.ts `sortErrors`.
//
// Refused, with the file named: a file that is not a cf-waf-migrate report, reports of different tool
// versions or schemaVersion, or scanned from different directories (`root`), one (root, workspace)
// instance in two reports (overlapping shards), a shard given twice, shards of different splits, and a
// missing shard (`shard 3/4 missing`), detectable because each shard report records `shard`.
import { sortFindings } from "../core/findings.js";
import type { InputError, Report } from "../core/model.js";
import { isLiteralZoneId } from "../core/import-id.js";
import { sortErrors, TOOL_NAME } from "../core/report.js";
import { formatShardSpec, type ShardSpec } from "../core/shard.js";
import { comparePaths, DEFAULT_WORKSPACE } from "./instances.js";
import { instanceName, workspaceOrder } from "./order.js";
import { compareText } from "../core/text-order.js";

/** One entry of the report's top-level `roots` (issue #13 report contract). */
export interface EstateRootEntry {
  path: string;
  workspace: string;
  states: string[];
  [extra: string]: unknown;
}

/** What merge reads of a report beyond the base contract: the estate fields, all optional. */
export interface ShardReport extends Report {
  roots?: EstateRootEntry[];
}

export interface MergeInput {
  /** How errors name this report (its file path as given). */
  name: string;
  /** The parsed JSON. */
  doc: unknown;
}

/** A refusal: the reports cannot be joined into one run's report. One line, naming the files. */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MergeError";
  }
}

/** The fields merge knows how to join; any other top-level field must be equal in every report, or an array. */
const KNOWN_FIELDS = new Set(["schemaVersion", "tool", "root", "roots", "shard", "resources", "zones", "findings", "plan", "errors", "versions"]);

export function mergeReports(inputs: readonly MergeInput[]): ShardReport {
  if (inputs.length === 0) throw new MergeError("name at least one report to merge");
  const reports = inputs.map((input) => ({ name: input.name, report: asReport(input) }));
  checkSameRun(reports);
  checkShards(reports);
  const roots = mergeRoots(reports);
  const rank = instanceRanks(roots);
  const byInstance = <T>(pick: (r: ShardReport) => readonly T[] | undefined) => orderByInstance(reports.flatMap((r) => pick(r.report) ?? []), rank);

  const first = reports[0]!.report;
  const merged: ShardReport = {
    schemaVersion: 1,
    tool: { ...first.tool },
    ...(first.root !== undefined ? { root: first.root } : {}),
    ...(reports.some((r) => r.report.roots !== undefined) ? { roots } : {}),
    resources: byInstance((r) => r.resources),
    zones: orderZones(byInstance((r) => r.zones)),
    findings: sortFindings(uniqueShared(reports.flatMap((r) => r.report.findings))),
    errors: sortErrors([...uniqueShared(reports.flatMap((r) => r.report.errors)), ...zonesSplitAcrossShards(reports)]),
  };
  if (reports.some((r) => r.report.plan !== undefined)) merged.plan = { steps: byInstance((r) => r.plan?.steps) };
  if (reports.some((r) => r.report.versions !== undefined)) merged.versions = byInstance((r) => r.versions as object[] | undefined);
  Object.assign(merged, otherFields(reports, rank));
  return merged;
}

/** `root`/`workspace` of an item, or of a `roots[]` entry (`path`). */
function instanceKey(item: unknown): string | null {
  if (item === null || typeof item !== "object") return null;
  const o = item as { root?: unknown; path?: unknown; workspace?: unknown };
  const root = typeof o.root === "string" ? o.root : typeof o.path === "string" ? o.path : null;
  if (root === null) return null;
  return `${root}\u0000${typeof o.workspace === "string" ? o.workspace : DEFAULT_WORKSPACE}`;
}

function describeInstance(key: string): string {
  const [root, workspace] = key.split("\u0000") as [string, string];
  return instanceName({ root, workspace });
}

function asReport(input: MergeInput): ShardReport {
  const doc = input.doc;
  const not = (why: string) => new MergeError(`${input.name}: not a ${TOOL_NAME} JSON report (${why}); merge reads the output of --format json`);
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return failWith(not("expected a JSON object"));
  const d = doc as Record<string, unknown>;
  const tool = d["tool"] as { name?: unknown; version?: unknown } | undefined;
  if (!tool || typeof tool !== "object" || tool.name !== TOOL_NAME) return failWith(not(`no "tool": {"name": "${TOOL_NAME}"}`));
  if (typeof tool.version !== "string") return failWith(not("no tool.version"));
  if (d["schemaVersion"] !== 1) {
    throw new MergeError(`${input.name}: schemaVersion ${JSON.stringify(d["schemaVersion"])} is not supported (this merge reads schemaVersion 1)`);
  }
  for (const list of ["resources", "zones", "findings", "errors"]) {
    if (!Array.isArray(d[list])) return failWith(not(`no "${list}" array`));
  }
  if (d["roots"] !== undefined && !Array.isArray(d["roots"])) return failWith(not(`"roots" is not an array`));
  if (d["shard"] !== undefined && !isShard(d["shard"])) return failWith(not(`"shard" is not {"index": K, "count": N} with 1 <= K <= N`));
  return d as unknown as ShardReport;
}

function failWith(e: MergeError): never {
  throw e;
}

function isShard(v: unknown): v is ShardSpec {
  if (v === null || typeof v !== "object") return false;
  const { index, count } = v as Record<string, unknown>;
  return Number.isInteger(index) && Number.isInteger(count) && (count as number) >= 1 && (index as number) >= 1 && (index as number) <= (count as number);
}

type Named = { name: string; report: ShardReport };

function checkSameRun(reports: Named[]): void {
  const [first, ...rest] = reports as [Named, ...Named[]];
  for (const r of rest) {
    if (r.report.tool.version !== first.report.tool.version) {
      throw new MergeError(
        `${first.name} was made by ${TOOL_NAME} ${first.report.tool.version}, ${r.name} by ${r.report.tool.version}: run every shard with the same version`,
      );
    }
    const a = first.report.root ?? ".";
    const b = r.report.root ?? ".";
    if (a !== b) {
      throw new MergeError(`${first.name} was scanned from root ${JSON.stringify(a)}, ${r.name} from ${JSON.stringify(b)}: shards of one estate share the root`);
    }
  }
}

function checkShards(reports: Named[]): void {
  const sharded = reports.filter((r) => r.report.shard !== undefined);
  if (sharded.length === 0) return;
  if (sharded.length !== reports.length) {
    const whole = reports.find((r) => r.report.shard === undefined)!;
    throw new MergeError(`${whole.name} is a whole run, ${sharded[0]!.name} is shard ${formatShardSpec(sharded[0]!.report.shard!)}: merge the shard reports of one --shard split`);
  }
  const count = sharded[0]!.report.shard!.count;
  const seen = new Map<number, string>();
  for (const r of sharded) {
    const s = r.report.shard!;
    if (s.count !== count) {
      throw new MergeError(`${sharded[0]!.name} is shard ${formatShardSpec(sharded[0]!.report.shard!)}, ${r.name} is shard ${formatShardSpec(s)}: shards of different splits`);
    }
    const other = seen.get(s.index);
    if (other !== undefined) throw new MergeError(`shard ${formatShardSpec(s)} given twice: ${other} and ${r.name}`);
    seen.set(s.index, r.name);
  }
  const missing: string[] = [];
  for (let k = 1; k <= count; k++) if (!seen.has(k)) missing.push(`${k}/${count}`);
  if (missing.length > 0) {
    throw new MergeError(`shard${missing.length === 1 ? "" : "s"} ${missing.join(", ")} missing: merge needs the report of every shard (got ${[...seen.keys()].sort((a, b) => a - b).map((k) => `${k}/${count}`).join(", ")})`);
  }
}

/**
 * A zone with settings in roots that different shards scanned: one run would have planned its one entry
 * point with the skip rules of every root (ZONE_SPLIT_ACROSS_ROOTS), which needs the roots' settings, not
 * their reports. Not guessed: reported as input that could not be read (exit 2), with the way out.
 */
function zonesSplitAcrossShards(reports: Named[]): InputError[] {
  const byZone = new Map<string, { report: number; root: string; workspace: string }[]>();
  reports.forEach((r, index) => {
    for (const z of r.report.zones as unknown as { zoneId: string; root?: string; workspace?: string }[]) {
      if (!isLiteralZoneId(z.zoneId) || z.root === undefined) continue;
      byZone.set(z.zoneId, [...(byZone.get(z.zoneId) ?? []), { report: index, root: z.root, workspace: z.workspace ?? DEFAULT_WORKSPACE }]);
    }
  });
  const out: InputError[] = [];
  for (const [zoneId, entries] of byZone) {
    if (new Set(entries.map((e) => e.report)).size < 2) continue;
    const sorted = [...entries].sort((a, b) => compareRootEntries({ path: a.root, workspace: a.workspace }, { path: b.root, workspace: b.workspace }));
    const where = sorted.map((e) => `${describeInstance(`${e.root}\u0000${e.workspace}`)} (${reports[e.report]!.name})`).join(", ");
    out.push({
      file: sorted[0]!.root,
      line: null,
      column: null,
      message: `zone ${zoneId} has settings in roots that different shards scanned: ${where}; its one entry point ruleset needs all of them in one run: scan these roots together (without --shard, or with paths that hold them all)`,
    });
  }
  return out;
}

/** Every (root, workspace) instance once; the same instance in two reports means the shards overlap. */
function mergeRoots(reports: Named[]): EstateRootEntry[] {
  const owner = new Map<string, string>();
  const roots: EstateRootEntry[] = [];
  for (const r of reports) {
    for (const entry of r.report.roots ?? []) {
      const key = instanceKey(entry);
      if (key === null) throw new MergeError(`${r.name}: a "roots" entry has no "path"`);
      const other = owner.get(key);
      if (other !== undefined) {
        throw new MergeError(`${describeInstance(key)} is in both ${other} and ${r.name}: the shards overlap (each root must be scanned by exactly one shard)`);
      }
      owner.set(key, r.name);
      roots.push(entry);
    }
  }
  return roots.sort(compareRootEntries);
}

/** Roots in path order, a root's `default` workspace first and then the others by name (as the estate loader lists instances). */
export function compareRootEntries(a: { path: string; workspace: string }, b: { path: string; workspace: string }): number {
  return comparePaths(a.path, b.path) || workspaceOrder(a.workspace, b.workspace);
}

/** Zones as the estate analysis lists them: by zone id, then root path, then workspace. */
function orderZones<T>(zones: T[]): T[] {
  const at = (z: T) => z as unknown as { zoneId: string; root?: string; workspace?: string };
  return zones
    .map((z, i) => ({ z, i }))
    .sort((x, y) => {
      const a = at(x.z);
      const b = at(y.z);
      return compareText(a.zoneId, b.zoneId) || comparePaths(a.root ?? ".", b.root ?? ".") || workspaceOrder(a.workspace ?? DEFAULT_WORKSPACE, b.workspace ?? DEFAULT_WORKSPACE) || x.i - y.i;
    })
    .map((x) => x.z);
}

function instanceRanks(roots: EstateRootEntry[]): Map<string, number> {
  const rank = new Map<string, number>();
  roots.forEach((r, i) => rank.set(instanceKey(r)!, i));
  return rank;
}

/**
 * Items grouped by instance in `roots` order, keeping each instance's items in their report's order
 * (a stable sort); items of no known instance come first (as the report builder lists estate-wide ones).
 */
function orderByInstance<T>(items: T[], rank: Map<string, number>): T[] {
  const keyed = uniqueShared(items).map((item, i) => {
    const key = instanceKey(item);
    return { item, i, r: key === null ? -1 : (rank.get(key) ?? rank.size) };
  });
  keyed.sort((a, b) => a.r - b.r || a.i - b.i);
  return keyed.map((k) => k.item);
}

/**
 * Items that belong to no instance (an unreadable --state given to every shard, an estate-wide finding) are
 * in every shard's report: keep one of each. Items of an instance are never dropped.
 */
function uniqueShared<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (instanceKey(item) !== null) return true;
    const text = JSON.stringify(item);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

/** Top-level fields added by later versions of the contract: equal everywhere (kept) or arrays (joined). */
function otherFields(reports: Named[], rank: Map<string, number>): Record<string, unknown> {
  const names = new Set(reports.flatMap((r) => Object.keys(r.report)).filter((k) => !KNOWN_FIELDS.has(k)));
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const values = reports.map((r) => (r.report as unknown as Record<string, unknown>)[name]);
    if (values.every((v) => Array.isArray(v) || v === undefined)) {
      out[name] = orderByInstance(values.flatMap((v) => (v as unknown[] | undefined) ?? []), rank);
      continue;
    }
    const text = JSON.stringify(values[0]);
    if (values.every((v) => JSON.stringify(v) === text)) {
      out[name] = values[0];
      continue;
    }
    throw new MergeError(`the reports differ in "${name}", which this version of merge cannot join: ${reports[0]!.name} and ${reports[values.findIndex((v) => JSON.stringify(v) !== text)]!.name}`);
  }
  return out;
}
