// An Enterprise zone migrated in validation mode (both WAFs on) through the simulated API, the legacy
// settings in a for_each module called once per zone the way real estates call it, and the plan's own
// migrate.sh --yes run with the real terraform: every legacy instance leaves the state, the blocks go,
// `terraform plan -detailed-exitcode` returns 0; then `api migrate --mode pending` finishes the zone and the
// plan stays clean.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "../../dist/sandbox/index.js";
import { TERRAFORM } from "../sandbox/harness.js";
import { runGroup } from "../e2e/helpers.js";
import { CF_PACKAGE, expectCleanPlan, initAndApply, legacyZone, migrateZones, newHarness, OWASP_PACKAGE, placeRuleset, planMigration, providerBlock, startApi, tool, WP_GROUP, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";

const MAIN = `variable "zones" {
  type = map(string)
  default = {
    "example.com" = "${ZONE_ID}"
  }
}

module "waf" {
  source   = "./modules/zone-waf"
  for_each = var.zones
  zone_id  = each.value
}
`;

const MODULE = `variable "zone_id" {
  type = string
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "medium"
  action_mode = "block"
}

resource "cloudflare_waf_group" "wordpress" {
  zone_id    = var.zone_id
  package_id = "${CF_PACKAGE}"
  group_id   = "${WP_GROUP}"
  mode       = "on"
}
`;

let h: TerraformHarness;
let root: Root;
let api: ApiServer;
let apiEnv: Record<string, string>;
let flags: { configs: string[]; rulesetIds: string[] };

beforeAll(async () => {
  h = newHarness(["3.35.0"], { reattach: true });
  root = h.root("enterprise", { "versions.tf": providerBlock("3.35.0"), "main.tf": MAIN }, [legacyZone()]);
  mkdirSync(path.join(root.dir, "modules", "zone-waf"), { recursive: true });
  root.write("modules/zone-waf/main.tf", MODULE);
  root.write("modules/zone-waf/versions.tf", 'terraform {\n  required_providers {\n    cloudflare = {\n      source = "cloudflare/cloudflare"\n    }\n  }\n}\n');
  await initAndApply(root);
  const started = await startApi(root);
  api = started.api;
  apiEnv = started.env;
  flags = await migrateZones(root, apiEnv, [ZONE_ID], "validation");
}, 600_000);
afterAll(async () => {
  await api?.close();
  h?.teardown();
});

describe("Enterprise zone, validation migration, migrate.sh --yes", () => {
  it(
    "the generated script migrates the root with the real terraform and the plan is clean, before and after the zone finishes",
    async () => {
      expect(root.account().zones[ZONE_ID]!.migration_state).toBe("validation");
      const planDir = await planMigration(root, [...flags.configs, ...flags.rulesetIds]);
      placeRuleset(root, planDir);
      const run = await runGroup("bash", [path.join(planDir, "migrate.sh"), "--yes"], root.dir, { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h.base, ...root.env, TF: TERRAFORM });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const list = (await root.tf("state", "list")).stdout;
      expect(list).toMatch(/^cloudflare_ruleset\./m);
      expect(list).not.toContain("cloudflare_waf_");
      expect(root.read("modules/zone-waf/main.tf")).not.toContain("cloudflare_waf_");
      await expectCleanPlan(root);

      const finished = await tool(root, ["api", "migrate", "--zone", ZONE_ID, "--mode", "pending", "--yes", "--poll-interval", "1"], apiEnv);
      expect(finished.exitCode, finished.stdout + finished.stderr).toBe(0);
      expect(root.account().zones[ZONE_ID]!.migration_state).toBe("finished");
      await expectCleanPlan(root);
    },
    600_000,
  );
});
