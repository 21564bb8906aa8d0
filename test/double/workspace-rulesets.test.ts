// One root, two workspaces, each its own zone (`local.zone = {...}[terraform.workspace]`, as teams with a
// workspace per region write it). `plan --out-dir` over both workspaces writes one migration per workspace;
// each ruleset.tf must exist in its own workspace only (count on terraform.workspace), be imported into its
// instance ([0]) and be copied to a file of its own. Copied as PLAN.md says, both files live in the root:
// each migrate.sh migrates its workspace, and the final plan of each workspace is clean (the other's
// ruleset has count 0). Copying one workspace's file over the other's is refused before any change. Written
// for provider 5 (attribute syntax), both files load on 5.22.0 and each workspace plans only its own.
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "../../dist/sandbox/index.js";
import { runGroup } from "../e2e/helpers.js";
import { TERRAFORM } from "../sandbox/harness.js";
import { tempDir } from "../support/workdir.js";
import { expectCleanPlan, legacyZone, migrateZones, newHarness, OWASP_PACKAGE, providerBlock, startApi, tool, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";

const EU = "11111111111111111111111111111111";
const US = ZONE_ID;

const MAIN = `locals {
  zone = {
    eu = "${EU}"
    us = "${US}"
  }[terraform.workspace]
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "low"
  action_mode = "block"
}
`;

let h: TerraformHarness;
let root: Root;
let api: ApiServer;
let out: string;
let v5: string;
let rulesetIdsFlags: string[];

beforeAll(async () => {
  h = newHarness(["3.35.0", "5.22.0"], { reattach: true });
  root = h.root("regions", { "versions.tf": providerBlock("3.35.0"), "required.tf": 'terraform {\n  required_version = ">= 1.5"\n}\n', "main.tf": MAIN }, [legacyZone({ id: EU }), legacyZone()]);
  expect((await root.tf("init", "-input=false")).code).toBe(0);
  for (const ws of ["eu", "us"]) {
    expect((await root.tf("workspace", "new", ws)).code).toBe(0);
    const applied = await root.tf("apply", "-auto-approve", "-input=false");
    expect(applied.code, applied.stderr).toBe(0);
  }
  const started = await startApi(root);
  api = started.api;
  const migrated = await migrateZones(root, started.env, [EU, US], "pending");
  out = path.join(tempDir("cfwm-double-wsr-"), "migration");
  const states = ["eu", "us"].flatMap((ws) => ["--state", `terraform.tfstate.d/${ws}/terraform.tfstate`]);
  const ids = [EU, US].flatMap((z) => ["--ruleset-id", `${z}=${migrated.ids[z]}`]);
  rulesetIdsFlags = ids;
  const plan = await tool(root, ["plan", ".", ...states, ...ids, "--out-dir", out, "--format", "json"]);
  expect(plan.exitCode, plan.stdout.slice(0, 4000) + plan.stderr).toBe(0);
  // The same plan in provider 5's attribute syntax (before the migration: afterwards there is none to plan).
  v5 = path.join(tempDir("cfwm-double-wsr5-"), "migration");
  const plan5 = await tool(root, ["plan", ".", ...states, ...ids, "--provider-major", "5", "--out-dir", v5, "--format", "json"]);
  expect(plan5.exitCode, plan5.stdout.slice(0, 4000) + plan5.stderr).toBe(0);
}, 600_000);
afterAll(async () => {
  await api?.close();
  h?.teardown();
});

const script = (ws: string, env: Record<string, string> = {}) =>
  runGroup("bash", [path.join(out, "_root", ws, "migrate.sh"), "--yes"], root.dir, { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h.base, ...root.env, TF: TERRAFORM, ...env });
const stateList = async (ws: string) => (await h.run(root.dir, ["state", "list"], { ...root.env, TF_WORKSPACE: ws })).stdout.trim();

describe("a root whose workspaces each manage their own zone", () => {
  it(
    "each workspace's ruleset is counted on terraform.workspace, imported into [0], copied to its own file; both workspaces migrate and plan clean",
    async () => {
      for (const [ws, zone] of [["eu", EU], ["us", US]] as const) {
        const dir = path.join(out, "_root", ws);
        const ruleset = readFileSync(path.join(dir, "ruleset.tf"), "utf8");
        expect(ruleset).toContain(`resource "cloudflare_ruleset" "waf_managed_${zone.slice(0, 8)}_${ws}" {\n  count = terraform.workspace == "${ws}" ? 1 : 0\n`);
        expect(readFileSync(path.join(dir, "imports.tf"), "utf8")).toContain(`to = cloudflare_ruleset.waf_managed_${zone.slice(0, 8)}_${ws}[0]`);
        const planMd = readFileSync(path.join(dir, "PLAN.md"), "utf8");
        expect(planMd).toContain(`/_root/${ws}/ruleset.tf' ./cf-waf-migrate-ruleset-${ws}.tf`);
        expect(planMd).toContain(`terraform import 'cloudflare_ruleset.waf_managed_${zone.slice(0, 8)}_${ws}[0]'`);
      }

      // us's file copied over eu's (one name for both): eu's migrate.sh refuses before changing anything.
      copyFileSync(path.join(out, "_root", "us", "ruleset.tf"), path.join(root.dir, "cf-waf-migrate-ruleset.tf"));
      const euBefore = await stateList("eu");
      const refused = await script("eu", { KEEP_BLOCKS: "1" });
      expect(refused.code, refused.stdout + refused.stderr).toBe(1);
      expect(refused.stderr).toContain("the root module declares no cloudflare_ruleset.waf_managed_11111111_eu (workspace eu): copy ruleset.tf to ./cf-waf-migrate-ruleset-eu.tf first");
      expect(await stateList("eu")).toBe(euBefore);
      rmSync(path.join(root.dir, "cf-waf-migrate-ruleset.tf"));

      // As PLAN.md says: one file per workspace, side by side.
      for (const ws of ["eu", "us"]) copyFileSync(path.join(out, "_root", ws, "ruleset.tf"), path.join(root.dir, `cf-waf-migrate-ruleset-${ws}.tf`));
      expect((await root.tf("validate")).code).toBe(0);
      // imports.tf targets eu's instance: eu plans the import, us (count 0) cannot plan with it (PLAN.md step 3 says so).
      copyFileSync(path.join(out, "_root", "eu", "imports.tf"), path.join(root.dir, "imports.tf"));
      const euImport = await h.run(root.dir, ["plan", "-refresh=false", "-no-color", "-input=false"], { ...root.env, TF_WORKSPACE: "eu" });
      expect(euImport.stdout, euImport.stderr).toContain("cloudflare_ruleset.waf_managed_11111111_eu[0]: Preparing import");
      const usImport = await h.run(root.dir, ["plan", "-refresh=false", "-no-color", "-input=false"], { ...root.env, TF_WORKSPACE: "us" });
      expect(usImport.code).not.toBe(0);
      expect(usImport.stderr).toContain("Configuration for import target does not exist");
      rmSync(path.join(root.dir, "imports.tf"));
      expect(readFileSync(path.join(out, "_root", "eu", "PLAN.md"), "utf8")).toContain("imports.tf targets the instances of workspace eu");
      // apply's dry run in us, both files in the root: it imports into us's instance; eu's has count 0 there.
      const dry = await tool(root, ["apply", ".", "--workspace", "us", ...rulesetIdsFlags, "--format", "json"]);
      expect(dry.exitCode, dry.stdout.slice(0, 4000) + dry.stderr).toBe(0);
      const dryReport = JSON.parse(dry.stdout);
      expect(dryReport.rehearsal.status, JSON.stringify(dryReport.rehearsal, null, 2)).toBe("passed");
      expect(dryReport.steps[1].commands).toEqual([expect.stringContaining(`'cloudflare_ruleset.waf_managed_${US.slice(0, 8)}_us[0]' zone/${US}/`)]);
      // The blocks are shared by both workspaces (ESTATE.md): each first with KEEP_BLOCKS=1, then again.
      for (const ws of ["eu", "us"]) {
        const r = await script(ws, { KEEP_BLOCKS: "1" });
        expect(r.code, r.stdout + r.stderr).toBe(0);
      }
      for (const ws of ["eu", "us"]) {
        const r = await script(ws);
        expect(r.code, r.stdout + r.stderr).toBe(0);
      }
      expect(root.read("main.tf")).not.toContain("cloudflare_waf_package");
      expect(await stateList("eu")).toBe("cloudflare_ruleset.waf_managed_11111111_eu[0]");
      expect(await stateList("us")).toBe(`cloudflare_ruleset.waf_managed_${US.slice(0, 8)}_us[0]`);
      for (const ws of ["eu", "us"]) {
        expect((await root.tf("workspace", "select", ws)).code).toBe(0);
        await expectCleanPlan(root);
      }
    },
    900_000,
  );

  it(
    "written for provider 5 (attribute syntax), the two workspaces' files load together and each workspace plans only its own ruleset",
    async () => {
      const files: Record<string, string> = { "versions.tf": providerBlock("5.22.0") };
      for (const ws of ["eu", "us"]) {
        const text = readFileSync(path.join(v5, "_root", ws, "ruleset.tf"), "utf8");
        expect(text).toContain(`count = terraform.workspace == "${ws}" ? 1 : 0`);
        expect(text).toContain("rules = [");
        files[`cf-waf-migrate-ruleset-${ws}.tf`] = text;
      }
      const r5 = h.root("regions-v5", files, [legacyZone({ id: EU }), legacyZone()]);
      const init = await r5.tf("init", "-input=false");
      expect(init.code, init.stderr).toBe(0);
      const validate = await r5.tf("validate");
      expect(validate.code, validate.stdout + validate.stderr).toBe(0);
      for (const [ws, zone, other] of [["eu", EU, US], ["us", US, EU]] as const) {
        expect((await r5.tf("workspace", "new", ws)).code).toBe(0);
        const planned = await r5.tf("plan", "-refresh=false", "-input=false");
        expect(planned.code, planned.stdout + planned.stderr).toBe(0);
        expect(planned.stdout).toContain(`cloudflare_ruleset.waf_managed_${zone.slice(0, 8)}_${ws}[0] will be created`);
        expect(planned.stdout).not.toContain(`waf_managed_${other.slice(0, 8)}`);
        expect(planned.stdout).toContain("1 to add, 0 to change, 0 to destroy");
      }
    },
    600_000,
  );
});
