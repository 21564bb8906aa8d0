// merge of shard reports: hand-written reports that follow the estate contract (issue #13 §3: top-level
// `roots`, `root`/`workspace` on every resource, zone, finding and plan step), split by --shard and joined.
import { describe, expect, it } from "vitest";
import { sortFindings } from "../../src/core/findings.js";
import type { Finding } from "../../src/core/model.js";
import { selectShard, shardOfRoot } from "../../src/core/shard.js";
import { compareRootEntries, mergeReports, MergeError, type ShardReport } from "../../src/estate/merge.js";

const TOOL = { name: "cf-waf-migrate", version: "0.1.0" };

interface Inst {
  path: string;
  workspace: string;
}

function zone(inst: Inst, zoneId: string) {
  return {
    zoneId,
    zoneName: null,
    plan: "enterprise",
    compatible: true,
    migrationMode: "validation",
    phase1: { eligible: true, reasons: [] },
    ruleset: { name: "default", rules: [] },
    imports: [{ to: "cloudflare_ruleset.waf", id: `zone/${zoneId}/<RULESET_ID>` }],
    stateRemovals: ["module.waf.cloudflare_waf_package.owasp"],
    root: inst.path,
    workspace: inst.workspace,
  };
}

function finding(inst: Inst, code: string, severity: Finding["severity"], zoneId: string, line: number): Finding {
  return {
    code,
    severity,
    message: `${code} in ${inst.path}`,
    zoneId,
    address: "module.waf.cloudflare_waf_package.owasp",
    file: `${inst.path === "." ? "" : inst.path + "/"}main.tf`,
    line,
    root: inst.path,
    workspace: inst.workspace,
  } as Finding;
}

/** The report one run over `instances` gives (in the report builder's order). */
function wholeReport(instances: Inst[], opts: { plan?: boolean } = {}): ShardReport {
  const sorted = [...instances].sort((a, b) => compareRootEntries(a, b));
  const findings: Finding[] = [];
  const report: ShardReport = {
    schemaVersion: 1,
    tool: TOOL,
    root: ".",
    roots: sorted.map((i) => ({ path: i.path, workspace: i.workspace, states: [`${i.path}/terraform.tfstate`] })),
    resources: [],
    zones: [],
    findings,
    errors: [],
  };
  sorted.forEach((inst, n) => {
    const zoneId = `zone${n % 3}`;
    report.resources.push(
      ...["a", "b"].map((k) => ({
        address: `module.waf.cloudflare_waf_group.g["${k}"]`,
        type: "cloudflare_waf_group",
        file: `${inst.path}/../../modules/waf/main.tf`,
        line: 3,
        zoneId,
        inConfig: true,
        inState: true,
        root: inst.path,
        workspace: inst.workspace,
      })),
    );
    report.zones.push(zone(inst, zoneId) as never);
    findings.push(finding(inst, "LEGACY_WAF_RESOURCE", "warning", zoneId, 3));
    if (n % 4 === 1) findings.push(finding(inst, "PROVIDER_UPGRADE_BLOCKED", "error", zoneId, 1));
    if (n % 5 === 2) report.errors.push({ file: `${inst.path}/broken.tf`, line: 2, column: 1, message: "Invalid block", root: inst.path, workspace: inst.workspace } as never);
  });
  report.findings = sortFindings(findings);
  // The estate analysis lists zones by zone id, then root path, then workspace.
  report.zones = [...report.zones].sort((a, b) => {
    const x = a as unknown as Inst & { zoneId: string; root: string };
    const y = b as unknown as Inst & { zoneId: string; root: string };
    return x.zoneId.localeCompare(y.zoneId) || compareRootEntries({ path: x.root, workspace: x.workspace }, { path: y.root, workspace: y.workspace });
  });
  report.errors = [...report.errors].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
  if (opts.plan) {
    report.plan = { steps: sorted.map((inst, i) => ({ number: 1, title: `remove ${i}`, commands: [`terraform -chdir=${inst.path} state rm x`], root: inst.path, workspace: inst.workspace }) as never) };
  }
  return report;
}

/** What `--shard k/n` gives for the same estate: only its roots, and the shard recorded. */
function shardOf(whole: ShardReport, k: number, n: number): ShardReport {
  const keep = (item: { root?: string }) => item.root === undefined || shardOfRoot(item.root, n) === k;
  const r: ShardReport = {
    ...whole,
    shard: { index: k, count: n },
    roots: selectShard(whole.roots!, { index: k, count: n }, (e) => e.path),
    resources: whole.resources.filter((x) => keep(x as { root?: string })),
    zones: whole.zones.filter((x) => keep(x as { root?: string })),
    findings: whole.findings.filter((x) => keep(x as { root?: string })),
    errors: whole.errors.filter((x) => keep(x as { root?: string })),
  };
  if (whole.plan) r.plan = { steps: whole.plan.steps.filter((x) => keep(x as { root?: string })) };
  return r;
}

const split = (whole: ShardReport, n: number) => Array.from({ length: n }, (_, i) => ({ name: `shard-${i + 1}.json`, doc: shardOf(whole, i + 1, n) }));

function estate(count: number, seed: number): Inst[] {
  const out: Inst[] = [];
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < count; i++) {
    const path = `live/team-${next() % 50}/zone-${i}`;
    out.push({ path, workspace: "default" });
    if (next() % 3 === 0) out.push({ path, workspace: `ws${next() % 4}` });
  }
  // A root with several workspaces, the report root itself, and paths whose order differs between plain
  // string order and path order (`live/prod/x` before `live/prod-eu`).
  out.push(
    { path: "live/staging", workspace: "eu" },
    { path: "live/staging", workspace: "us" },
    { path: ".", workspace: "default" },
    { path: "live/prod/x", workspace: "default" },
    { path: "live/prod-eu", workspace: "default" },
  );
  return out.filter((v, i, a) => a.findIndex((w) => w.path === v.path && w.workspace === v.workspace) === i);
}

describe("merge", () => {
  it("joins the shards of random splits into exactly the unsharded report (JSON-equal)", () => {
    for (let seed = 1; seed <= 25; seed++) {
      const whole = wholeReport(estate(5 + (seed % 17), seed), { plan: seed % 2 === 0 });
      const n = 1 + (seed % 7);
      const shards = split(whole, n);
      // Any order of the shard files on the command line.
      if (seed % 3 === 0) shards.reverse();
      const { shard: _none, ...expected } = whole;
      expect(JSON.stringify(mergeReports(shards)), `seed ${seed}, ${n} shards`).toBe(JSON.stringify(expected));
    }
  });

  it("keeps one copy of what belongs to no root (in every shard) and drops the shard field", () => {
    const whole = wholeReport(estate(6, 7));
    const shared = { file: "../elsewhere.tfstate", line: null, column: null, message: "state is empty" };
    whole.errors = [shared, ...whole.errors];
    const shards = split(whole, 3).map((s) => ({ ...s, doc: { ...(s.doc as ShardReport), errors: [shared, ...(s.doc as ShardReport).errors] } }));
    const merged = mergeReports(shards);
    expect(merged.errors.filter((e) => e.file === "../elsewhere.tfstate")).toHaveLength(1);
    expect(merged.shard).toBeUndefined();
  });

  it("refuses a missing shard and names it", () => {
    const shards = split(wholeReport(estate(10, 3)), 4);
    expect(() => mergeReports([shards[0]!, shards[1]!, shards[3]!])).toThrow(/shard 3\/4 missing/);
    expect(() => mergeReports([shards[1]!])).toThrow(/shards 1\/4, 3\/4, 4\/4 missing/);
  });

  it("refuses a shard given twice, shards of different splits, and a whole run mixed with shards", () => {
    const whole = wholeReport(estate(10, 4));
    const four = split(whole, 4);
    expect(() => mergeReports([...four, { name: "again.json", doc: four[1]!.doc }])).toThrow(/shard 2\/4 given twice: shard-2.json and again.json/);
    const two = split(whole, 2);
    expect(() => mergeReports([four[0]!, two[1]!])).toThrow(/shard 1\/4, shard-2.json is shard 2\/2: shards of different splits/);
    expect(() => mergeReports([{ name: "all.json", doc: whole }, four[0]!])).toThrow(/all.json is a whole run/);
  });

  it("refuses overlapping shards: one (root, workspace) in two reports", () => {
    const whole = wholeReport([
      { path: "live/prod", workspace: "default" },
      { path: "live/staging", workspace: "eu" },
    ]);
    const a = { ...whole, shard: undefined };
    delete a.shard;
    const b = { ...a, roots: a.roots!.filter((r) => r.workspace === "eu") };
    expect(() => mergeReports([{ name: "a.json", doc: a }, { name: "b.json", doc: b }])).toThrow(
      /live\/staging \(workspace eu\) is in both a.json and b.json: the shards overlap/,
    );
  });

  it("refuses reports of other tool versions, schema versions or roots, and what is not a report", () => {
    const shards = split(wholeReport(estate(4, 9)), 2);
    const other = (patch: Record<string, unknown>) => ({ name: "other.json", doc: { ...(shards[1]!.doc as object), ...patch } });
    expect(() => mergeReports([shards[0]!, other({ tool: { name: "cf-waf-migrate", version: "0.2.0" } })])).toThrow(
      /shard-1.json was made by cf-waf-migrate 0.1.0, other.json by 0.2.0/,
    );
    expect(() => mergeReports([shards[0]!, other({ schemaVersion: 2 })])).toThrow(/other.json: schemaVersion 2 is not supported/);
    expect(() => mergeReports([shards[0]!, other({ root: "infra" })])).toThrow(/shard-1.json was scanned from root "\.", other.json from "infra"/);
    for (const doc of [[], null, { version: 4, resources: [] }, { tool: { name: "tflint" }, schemaVersion: 1 }, { ...(shards[0]!.doc as object), zones: {} }]) {
      expect(() => mergeReports([{ name: "x.json", doc }]), JSON.stringify(doc).slice(0, 40)).toThrow(/x.json: not a cf-waf-migrate JSON report/);
    }
    expect(() => mergeReports([])).toThrow(MergeError);
  });

  it("joins fields added by later contracts: arrays are united, equal values kept, differing ones refused", () => {
    const shards = split(wholeReport(estate(4, 11)), 2).map((s, i) => ({ ...s, doc: { ...(s.doc as object), notes: [`n${i}`], mode: "offline" } }));
    const merged = mergeReports(shards) as unknown as Record<string, unknown>;
    expect(merged["notes"]).toEqual(["n0", "n1"]);
    expect(merged["mode"]).toBe("offline");
    shards[1] = { ...shards[1]!, doc: { ...(shards[1]!.doc as object), mode: "online" } };
    expect(() => mergeReports(shards)).toThrow(/differ in "mode"/);
  });

  it("merges reports without estate fields (one root each) by concatenation", () => {
    const base = wholeReport([{ path: "a", workspace: "default" }]);
    const plain = (r: ShardReport) => {
      const { roots: _r, ...rest } = r;
      return { ...rest, resources: r.resources.map(({ root: _x, workspace: _w, ...x }: Record<string, unknown>) => x) } as unknown as ShardReport;
    };
    const merged = mergeReports([
      { name: "a.json", doc: plain(base) },
      { name: "b.json", doc: plain(base) },
    ]);
    expect(merged.roots).toBeUndefined();
    // Two identical root-less inventories: the shared entries are kept once.
    expect(merged.resources).toHaveLength(2);
  });

  it("does not guess a zone split across roots that different shards scanned: an input error (exit 2) says how to scan them together", () => {
    const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";
    // Two roots that land in different shards of 2, and one that shares a shard with the first.
    const paths = Array.from({ length: 40 }, (_, i) => `live/r${i}`);
    const a = paths.find((p) => shardOfRoot(p, 2) === 1)!;
    const b = paths.find((p) => shardOfRoot(p, 2) === 2)!;
    const whole = wholeReport([
      { path: a, workspace: "default" },
      { path: b, workspace: "eu" },
    ]);
    for (const z of whole.zones as unknown as { zoneId: string }[]) z.zoneId = ZONE;
    const merged = mergeReports(split(whole, 2));
    const split2 = merged.errors.filter((e) => e.message.includes(ZONE));
    expect(split2).toHaveLength(1);
    expect(split2[0]!.message).toBe(
      `zone ${ZONE} has settings in roots that different shards scanned: ${a} (shard-1.json), ${b} (workspace eu) (shard-2.json); its one entry point ruleset needs all of them in one run: scan these roots together (without --shard, or with paths that hold them all)`,
    );
    // In one shard (or one run), the estate analysis joined them already: nothing to say.
    expect(mergeReports(split(whole, 1)).errors.filter((e) => e.message.includes(ZONE))).toEqual([]);
  });
});
