// plan --out-dir over an estate, then the per-root migrate.sh run with the real terraform (import and plan
// stubbed, test/support/real-terraform.sh): each script runs in its own root and workspace wherever it is
// started from, and a module several roots share keeps its legacy blocks until every root has removed
// their instances from state.
import { execa } from "execa";
import { copyFileSync, cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";
import { tempDir } from "../support/workdir.js";
import { REAL_TERRAFORM, RULESET_ID, tfEnv, WRAPPER } from "./helpers.js";

const STATES: readonly string[] = ESTATE_STATES;
const ZONES = ["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "1b2c3d4e5f60718293a4b5c6d7e8f901", "2c3d4e5f60718293a4b5c6d7e8f90112", "4e5f60718293a4b5c6d7e8f901122334"];
const SHARED = "modules/legacy-waf/main.tf";

async function stateList(dir: string, workspace: string): Promise<string[]> {
  const r = await execa(REAL_TERRAFORM, ["state", "list"], { cwd: dir, env: tfEnv({ TF_WORKSPACE: workspace }), reject: false });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout.split("\n").filter(Boolean);
}

function script(top: string, out: string, sub: string, env: Record<string, string> = {}) {
  // Started from the estate's top, not from the root: the script changes to its root itself.
  return execa("bash", [path.join(out, sub, "migrate.sh"), "--yes"], { cwd: top, env: tfEnv({ TF: WRAPPER, ...env }), reject: false });
}

describe("estate: one migration per root and workspace", { timeout: 300_000 }, () => {
  it("writes DIR/<root>/[<ws>/] and ESTATE.md; each migrate.sh migrates its own root and workspace only", async () => {
    const top = tempDir("cfwm-estate-run-");
    cpSync(path.join(TESTDATA, "estate"), top, { recursive: true });
    for (const root of ["live/prod", "live/staging"]) {
      const get = await execa(REAL_TERRAFORM, ["get"], { cwd: path.join(top, root), env: tfEnv(), reject: false });
      expect(get.exitCode, get.stderr).toBe(0);
    }
    const out = path.join(top, "migration");
    const ids = ZONES.flatMap((z) => ["--ruleset-id", `${z}=${RULESET_ID}`]);
    const plan = await runCli(["plan", ".", ...STATES.flatMap((s) => ["--state", s]), ...ids, "--out-dir", "migration", "--format", "json", "--quiet"], { cwd: top });
    expect(plan.exitCode, plan.stderr).toBe(0);

    const estate = readFileSync(path.join(out, "ESTATE.md"), "utf8");
    for (const sub of ["live/prod", "live/staging/eu", "live/staging/us", "modules/legacy-waf/examples/basic"]) expect(estate).toContain(`KEEP_BLOCKS=1 bash migration/${sub}/migrate.sh`);
    expect(estate).toContain("`live/edge`: no legacy WAF of its own; its bypasses of `0f1e2d3c4b5a69788796a5b4c3d2e1f0` become skip rules in `live/prod`");
    expect(estate).toContain("`live/migrated`: already migrated");
    // The split zone's ruleset is written once, with the edge root's skip rules.
    const prodRuleset = readFileSync(path.join(out, "live/prod/ruleset.tf"), "utf8");
    expect(prodRuleset).toContain("cloudflare_page_rule.status");
    expect(prodRuleset).toContain("cloudflare_firewall_rule.monitoring");
    const prodReport = JSON.parse(readFileSync(path.join(out, "live/prod/report.json"), "utf8"));
    expect(prodReport.findings.filter((f: { code: string }) => f.code === "ZONE_SPLIT_ACROSS_ROOTS")).toHaveLength(1);
    const euReport = JSON.parse(readFileSync(path.join(out, "live/staging/eu/report.json"), "utf8"));
    expect(euReport.roots).toEqual([{ path: "live/staging", workspace: "eu", states: ["live/staging/terraform.tfstate.d/eu/terraform.tfstate"] }]);
    expect(euReport.zones.map((z: { zoneId: string }) => z.zoneId)).toEqual([ZONES[1]]);

    const staging = path.join(top, "live/staging");
    // Step 2 as each PLAN.md says: one workspace's ruleset per file, limited to its workspace and imported into [0].
    for (const [ws, zone] of [["eu", ZONES[1]!], ["us", ZONES[2]!]] as const) {
      const planMd = readFileSync(path.join(out, "live/staging", ws, "PLAN.md"), "utf8");
      expect(planMd).toContain(`cp '../../migration/live/staging/${ws}/ruleset.tf' ./cf-waf-migrate-ruleset-${ws}.tf`);
      expect(planMd).toContain(`terraform import 'cloudflare_ruleset.waf_managed_${zone.slice(0, 8)}_${ws}[0]'`);
      const ruleset = readFileSync(path.join(out, "live/staging", ws, "ruleset.tf"), "utf8");
      expect(ruleset).toContain(`resource "cloudflare_ruleset" "waf_managed_${zone.slice(0, 8)}_${ws}" {\n  count = terraform.workspace == "${ws}" ? 1 : 0\n`);
      copyFileSync(path.join(out, "live/staging", ws, "ruleset.tf"), path.join(staging, `cf-waf-migrate-ruleset-${ws}.tf`));
    }
    // A root with one workspace keeps the plain file.
    expect(readFileSync(path.join(out, "live/prod/PLAN.md"), "utf8")).toContain("cp '../../migration/live/prod/ruleset.tf' ./cf-waf-migrate-ruleset.tf");
    expect(readFileSync(path.join(out, "live/prod/ruleset.tf"), "utf8")).not.toContain("count");
    // Step 2 there too: migrate.sh refuses to import a ruleset the root does not declare.
    copyFileSync(path.join(out, "live/prod/ruleset.tf"), path.join(top, "live/prod/cf-waf-migrate-ruleset.tf"));
    const usBefore = await stateList(staging, "us");
    const sharedBefore = readFileSync(path.join(top, SHARED), "utf8");

    // Phase 1: the eu workspace removes its own legacy instances; the shared module keeps its blocks.
    const eu = await script(top, out, "live/staging/eu", { KEEP_BLOCKS: "1" });
    expect(eu.exitCode, eu.stderr + eu.stdout).toBe(0);
    expect(eu.stdout).toContain("KEEP_BLOCKS=1: stopping before step 6");
    // One `terraform state list` of eu serves both checks: nothing changes the state between them.
    const euAfter = await stateList(staging, "eu");
    expect(euAfter.filter((a) => a.includes("cloudflare_waf_"))).toEqual([]);
    expect(euAfter).toContain("cloudflare_ruleset.waf_managed_1b2c3d4e_eu[0]");
    expect(await stateList(staging, "us")).toEqual(usBefore);
    expect(readFileSync(path.join(top, SHARED), "utf8")).toBe(sharedBefore);

    const us = await script(top, out, "live/staging/us", { KEEP_BLOCKS: "1" });
    expect(us.exitCode, us.stderr + us.stdout).toBe(0);
    const prod = await script(top, out, "live/prod", { KEEP_BLOCKS: "1" });
    expect(prod.exitCode, prod.stderr + prod.stdout).toBe(0);
    expect((await stateList(path.join(top, "live/prod"), "default")).filter((a) => a.includes("cloudflare_waf_"))).toEqual([]);

    // Phase 2: the shared blocks go once every root sharing them has removed its instances.
    const again = await script(top, out, "live/staging/eu");
    expect(again.exitCode, again.stderr + again.stdout).toBe(0);
    expect(readFileSync(path.join(top, SHARED), "utf8")).not.toContain("cloudflare_waf_");
    const usAgain = await script(top, out, "live/staging/us");
    expect(usAgain.exitCode, usAgain.stderr + usAgain.stdout).toBe(0);
    expect(usAgain.stdout).toContain("the legacy blocks are already deleted: skipping");
  });

  it("apply --chdir ROOT --workspace WS migrates that workspace's state only", async () => {
    const top = tempDir("cfwm-estate-apply-");
    cpSync(path.join(TESTDATA, "estate"), top, { recursive: true });
    const staging = path.join(top, "live/staging");
    const get = await execa(REAL_TERRAFORM, ["get"], { cwd: staging, env: tfEnv(), reject: false });
    expect(get.exitCode, get.stderr).toBe(0);
    const out = path.join(top, "migration");
    const ids = ZONES.flatMap((z) => ["--ruleset-id", `${z}=${RULESET_ID}`]);
    const plan = await runCli(["plan", ".", ...STATES.flatMap((s) => ["--state", s]), ...ids, "--out-dir", "migration", "--format", "json", "--quiet"], { cwd: top });
    expect(plan.exitCode, plan.stderr).toBe(0);
    // Steps 1-2 done by hand: the us zone's ruleset is in the root.
    copyFileSync(path.join(out, "live/staging/us/ruleset.tf"), path.join(staging, "cf-waf-migrate-ruleset-us.tf"));
    const euBefore = await stateList(staging, "eu");

    const r = await execa("node", [BIN, "apply", "--chdir", "live/staging", "--workspace", "us", "--ruleset-id", `${ZONES[2]}=${RULESET_ID}`, "--terraform-bin", WRAPPER, "--yes", "--format", "json"], { cwd: top, env: tfEnv(), reject: false });
    expect(r.exitCode, r.stderr + r.stdout).toBe(0);
    const us = await stateList(staging, "us");
    expect(us.filter((a) => a.includes("cloudflare_waf_"))).toEqual([]);
    expect(us).toContain("cloudflare_ruleset.waf_managed_2c3d4e5f_us[0]");
    expect(await stateList(staging, "eu")).toEqual(euBefore);

    const bad = await execa("node", [BIN, "apply", "--chdir", "live/staging", "--workspace", "us;rm", "--terraform-bin", WRAPPER, "--format", "json"], { cwd: top, env: tfEnv(), reject: false });
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout).error.message).toContain("not a workspace name");
  });

  it("--pull-state reads every root's workspaces through terraform; --shard keeps its roots; --summary-file has one entry per instance", async () => {
    const top = tempDir("cfwm-estate-pull-");
    cpSync(path.join(TESTDATA, "estate"), top, { recursive: true });
    for (const root of ["live/prod", "live/staging", "live/edge", "live/migrated", "live/dns", "modules/legacy-waf/examples/basic"]) {
      const get = await execa(REAL_TERRAFORM, ["get"], { cwd: path.join(top, root), env: tfEnv(), reject: false });
      expect(get.exitCode, get.stderr).toBe(0);
    }
    const r = await execa("node", [BIN, "gate", ".", "--pull-state", "--summary-file", "summary.json", "--format", "json", "--quiet"], { cwd: top, env: tfEnv(), reject: false });
    expect(r.exitCode, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toEqual([]);
    expect(report.zones.map((z: { zoneId: string; root: string; workspace: string }) => `${z.zoneId}@${z.root}:${z.workspace}`)).toEqual([
      `${ZONES[0]}@live/edge:default`,
      `${ZONES[0]}@live/prod:default`,
      `${ZONES[1]}@live/staging:eu`,
      `${ZONES[2]}@live/staging:us`,
      `${ZONES[3]}@modules/legacy-waf/examples/basic:default`,
    ]);
    const summary = JSON.parse(readFileSync(path.join(top, "summary.json"), "utf8")) as { Name: string; Workspace: string; Result: string }[];
    expect(summary.filter((e) => e.Name === "live/staging").map((e) => [e.Workspace, e.Result])).toEqual([
      ["eu", "failed"],
      ["us", "failed"],
    ]);

    // Two shards together cover every root once.
    const shard = async (k: number) => JSON.parse((await runCli(["scan", ".", "--shard", `${k}/2`, "--format", "json", "--quiet"], { cwd: top })).stdout) as { shard: unknown; roots: { path: string }[] };
    const [one, two] = [await shard(1), await shard(2)];
    expect(one.shard).toEqual({ index: 1, count: 2 });
    expect([...one.roots, ...two.roots].map((x) => x.path).sort()).toEqual(["live/dns", "live/edge", "live/migrated", "live/prod", "live/staging", "modules/legacy-waf/examples/basic"]);
  });
});
