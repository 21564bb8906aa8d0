// --from-cf-terraforming with a resource that already has for_each (one resource, its zones as a map): the
// import went to `x[0]`, an instance a for_each resource never has, and terraform refused it. Through the
// provider double with the real terraform: plan imports into `x["shop"]`, migrate.sh --yes imports there,
// and `terraform plan -detailed-exitcode` returns 0.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "../../dist/sandbox/index.js";
import { runGroup } from "../e2e/helpers.js";
import { TERRAFORM } from "../sandbox/harness.js";
import { tempDir } from "../support/workdir.js";
import { expectCleanPlan, initAndApply, legacyZone, migrateZones, newHarness, PACKAGE_AND_GROUP, planMigration, providerBlock, startApi, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";

let h: TerraformHarness;
let root: Root;
let api: ApiServer;
let flags: { configs: string[]; rulesetIds: string[] };

beforeAll(async () => {
  h = newHarness(["3.35.0"], { reattach: true });
  root = h.root("cft", { "versions.tf": providerBlock("3.35.0"), "main.tf": PACKAGE_AND_GROUP }, [legacyZone()]);
  await initAndApply(root);
  const started = await startApi(root);
  api = started.api;
  flags = await migrateZones(root, started.env, [ZONE_ID], "pending");
}, 600_000);
afterAll(async () => {
  await api?.close();
  h?.teardown();
});

describe("a cf-terraforming ruleset with for_each", () => {
  it(
    "is imported into the instance of its zone (x[\"shop\"]), and the migration plans clean",
    async () => {
      // The service's own ruleset, written as a cf-terraforming user keeps it: one resource, for_each over zones.
      const generated = readFileSync(path.join(await planMigration(root, [...flags.configs, ...flags.rulesetIds]), "ruleset.tf"), "utf8");
      const resource = generated.slice(generated.indexOf('resource "cloudflare_ruleset"'));
      const forEach = resource
        .replace(/resource "cloudflare_ruleset" "[^"]+" \{\n/, `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  for_each = {\n    shop = "${ZONE_ID}"\n  }\n\n`)
        .replace(new RegExp(`zone_id( *)= "${ZONE_ID}"`), "zone_id$1= each.value");
      expect(forEach).toMatch(/zone_id +  *= each\.value/);
      const cft = path.join(tempDir("cfwm-cft-for-each-"), "cf-terraforming.tf");
      writeFileSync(cft, forEach);

      const planDir = await planMigration(root, [...flags.configs, ...flags.rulesetIds], ["--from-cf-terraforming", cft]);
      const to = 'cloudflare_ruleset.terraform_managed_resource_abc["shop"]';
      expect(readFileSync(path.join(planDir, "migrate.sh"), "utf8")).toContain(`"$TF" import '${to}' 'zone/${ZONE_ID}/`);
      root.write("cf-waf-migrate-ruleset.tf", readFileSync(path.join(planDir, "ruleset.tf"), "utf8"));
      const run = await runGroup("bash", [path.join(planDir, "migrate.sh"), "--yes"], root.dir, { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h.base, ...root.env, TF: TERRAFORM });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const list = (await root.tf("state", "list")).stdout;
      expect(list.split("\n")).toContain(to);
      expect(list).not.toContain("cloudflare_waf_");
      await expectCleanPlan(root);
    },
    600_000,
  );
});
