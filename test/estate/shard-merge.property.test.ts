// Property: scanning an estate as N shards (`--shard k/N`, k = 1..N) and joining the shard reports with
// `merge` gives the report of one run over every root, for random N, on testdata/estate and on generated
// estates. Runs the library the CLI runs (load, analyse, build the report) in-process, so many splits stay
// fast; the CLI flags themselves are tested end to end in test/cli/estate-tools.e2e.test.ts.
//
// The one exception is by design: a zone with settings in roots that different shards scanned cannot be
// joined from reports (merge.ts); merge then adds an input error for it, and everything else is equal.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { inShard, shardOfRoot, type ShardSpec } from "../../src/core/shard.js";
import { analyzeEstate } from "../../src/estate/analyze.js";
import { loadEstate } from "../../src/estate/load.js";
import { mergeReports } from "../../src/estate/merge.js";
import { buildEstateReport, instanceInputs } from "../../src/estate/report.js";
import { TESTDATA } from "../support/cli.js";
import { wafPackageState } from "../support/state.js";
import { tempDir } from "../support/workdir.js";

async function scan(cwd: string, states: string[], shard?: ShardSpec): Promise<Report> {
  const estate = await loadEstate({
    paths: ["."],
    statePaths: states,
    cwd,
    readStdin: async () => Buffer.alloc(0),
    ...(shard ? { rootFilter: (p: string) => inShard(p, shard) } : {}),
  });
  const analysis = analyzeEstate(instanceInputs(estate.instances), {});
  const report = buildEstateReport({ version: "0.0.0-test", root: ".", instances: estate.instances, analysis, errors: estate.errors });
  return shard ? { ...report, shard } : report;
}

/** The report without what concerns the given zones (which shards cannot join). */
function withoutZones(r: Report, zones: Set<string>): string {
  return JSON.stringify({
    ...r,
    zones: r.zones.filter((z) => !zones.has(z.zoneId)),
    findings: r.findings.filter((f) => !zones.has(f.zoneId ?? "")),
    errors: r.errors.filter((e) => ![...zones].some((z) => e.message.includes(z))),
  });
}

/** Checks every split of `counts`; returns how many splits kept the estate's split zones together and apart. */
async function checkSplits(cwd: string, states: string[], counts: number[], rand: (n: number) => number): Promise<{ together: number; apart: number }> {
  const whole = await scan(cwd, states);
  // Zones whose settings live in several roots (one entry point for all of them).
  const split = whole.findings
    .filter((f) => f.code === "ZONE_SPLIT_ACROSS_ROOTS")
    .map((f) => ({ zoneId: f.zoneId!, roots: (f.details!["roots"] as { root: string }[]).map((r) => r.root) }));
  let together = 0;
  let apart = 0;
  for (const n of counts) {
    const shards = await Promise.all(Array.from({ length: n }, (_, i) => scan(cwd, states, { index: i + 1, count: n })));
    const inputs = shards.map((doc, i) => ({ name: `shard-${i + 1}-of-${n}.json`, doc: JSON.parse(JSON.stringify(doc)) as unknown }));
    // Shard files arrive in any order.
    for (let i = inputs.length - 1; i > 0; i--) {
      const j = rand(i + 1);
      [inputs[i], inputs[j]] = [inputs[j]!, inputs[i]!];
    }
    const merged = mergeReports(inputs);
    const broken = new Set(split.filter((s) => new Set(s.roots.map((r) => shardOfRoot(r, n))).size > 1).map((s) => s.zoneId));
    if (broken.size === 0) {
      together++;
      expect(JSON.stringify(merged), `N=${n}`).toBe(JSON.stringify(whole));
      continue;
    }
    apart++;
    for (const zoneId of broken) {
      expect(merged.errors.filter((e) => e.message.startsWith(`zone ${zoneId} has settings in roots that different shards scanned`)), `N=${n}`).toHaveLength(1);
    }
    expect(withoutZones(merged, broken), `N=${n}`).toBe(withoutZones(whole, broken));
  }
  return { together, apart };
}

function lcg(seed: number) {
  let x = seed >>> 0;
  return (n: number) => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) % n;
}

const hex32 = (rand: (n: number) => number) => Array.from({ length: 32 }, () => "0123456789abcdef"[rand(16)]).join("");

/** An estate of `roots` roots calling one module: random zones (some shared by two roots), some workspaces. */
function generateEstate(rand: (n: number) => number, roots: number): { dir: string; states: string[] } {
  const dir = tempDir("cfwm-gen-estate-");
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  write(
    "modules/waf/main.tf",
    'variable "zone_id" {}\nresource "cloudflare_waf_package" "owasp" {\n  zone_id     = var.zone_id\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "medium"\n}\n',
  );
  const zones = Array.from({ length: roots }, () => hex32(rand));
  const states: string[] = [];
  for (let i = 0; i < roots; i++) {
    const root = `live/${["team-a", "team-b", "edge"][rand(3)]}/r${i}`;
    // One root in four shares the zone of an earlier one, with a Page Rule that bypasses the WAF.
    const shared = i > 0 && rand(4) === 0;
    const zone = shared ? zones[rand(i)]! : zones[i]!;
    write(
      `${root}/main.tf`,
      shared
        ? `resource "cloudflare_page_rule" "status" {\n  zone_id = "${zone}"\n  target  = "r${i}.example.com/status*"\n  actions {\n    disable_security = true\n  }\n}\n`
        : `module "waf" {\n  source  = "../../../modules/waf"\n  zone_id = "${zone}"\n}\n`,
    );
    if (!shared && rand(3) === 0) {
      for (const ws of ["eu", "us"].slice(0, 1 + rand(2))) {
        const file = `${root}/terraform.tfstate.d/${ws}/terraform.tfstate`;
        write(file, v4State(hex32(rand)));
        states.push(file);
      }
    }
  }
  return { dir, states };
}

function v4State(zoneId: string): string {
  return JSON.stringify(wafPackageState(zoneId, { lineage: zoneId }));
}

describe("--shard k/N for k = 1..N, merged, equals the unsharded report", () => {
  it("on testdata/estate, for random N", async () => {
    const rand = lcg(20261125);
    const counts = new Set<number>([1, 2]);
    while (counts.size < 7) counts.add(2 + rand(11));
    const states = [
      "live/prod/terraform.tfstate",
      "live/staging/terraform.tfstate.d/eu/terraform.tfstate",
      "live/staging/terraform.tfstate.d/us/terraform.tfstate",
      "live/edge/terraform.tfstate",
      "live/migrated/terraform.tfstate",
    ];
    const seen = await checkSplits(path.join(TESTDATA, "estate"), states, [...counts], rand);
    // Both cases were exercised: the split zone's roots in one shard, and apart.
    expect(seen.together).toBeGreaterThan(0);
    expect(seen.apart).toBeGreaterThan(0);
  }, 120_000);

  it("on generated estates, for random N", async () => {
    for (const seed of [7, 11, 2026]) {
      const rand = lcg(seed);
      const { dir, states } = generateEstate(rand, 12 + rand(10));
      const seen = await checkSplits(dir, states, [1, 2 + rand(3), 5 + rand(6)], rand);
      expect(seen.together + seen.apart).toBe(3);
    }
  }, 120_000);
});
