// A Pro zone (pending migration: the only mode a Pro or Business zone has) whose legacy settings are spread
// the way real repositories spread them: groups in a local module instantiated per group with for_each,
// rules with count, the package at the root and a root output over it that must go with it. Through the
// simulated API with `api migrate --mode pending --yes`, `plan --out-dir`, `apply --yes`, then the
// provider upgrade 3.35.0 → 4.52.8: `terraform plan -detailed-exitcode` returns 0 on both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "../../dist/sandbox/index.js";
import { expectCleanPlan, initAndApply, legacyZone, migrateZones, newHarness, OWASP_PACKAGE, placeRuleset, planMigration, providerBlock, ROBOTS_GROUP, SQLI_RULE, startApi, tool, upgradeProvider, WP_GROUP, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";

const MAIN = `variable "zone_id" {
  type    = string
  default = "${ZONE_ID}"
}

variable "groups" {
  type = map(object({ id = string, mode = string }))
  default = {
    bad_robots = { id = "${ROBOTS_GROUP}", mode = "off" }
    wordpress  = { id = "${WP_GROUP}", mode = "on" }
  }
}

variable "rule_ids" {
  type    = list(string)
  default = ["${SQLI_RULE}"]
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "low"
  action_mode = "simulate"
}

module "group" {
  source   = "./modules/waf-group"
  for_each = var.groups
  zone_id  = var.zone_id
  group_id = each.value.id
  mode     = each.value.mode
}

resource "cloudflare_waf_rule" "rules" {
  count   = length(var.rule_ids)
  zone_id = var.zone_id
  rule_id = var.rule_ids[count.index]
  mode    = "challenge"
}

output "owasp_sensitivity" {
  description = "Only exposes the legacy package: goes with it"
  value       = cloudflare_waf_package.owasp.sensitivity
}
`;

const MODULE = `variable "zone_id" {
  type = string
}

variable "group_id" {
  type = string
}

variable "mode" {
  type = string
}

resource "cloudflare_waf_group" "this" {
  zone_id  = var.zone_id
  group_id = var.group_id
  mode     = var.mode
}
`;

const MODULE_VERSIONS = `terraform {
  required_providers {
    cloudflare = {
      source = "cloudflare/cloudflare"
    }
  }
}
`;

let h: TerraformHarness;
let root: Root;
let api: ApiServer;
let flags: { configs: string[]; rulesetIds: string[] };

beforeAll(async () => {
  h = newHarness(["3.35.0", "4.52.8"], { reattach: true });
  root = h.root("pro", { "versions.tf": providerBlock("3.35.0"), "main.tf": MAIN }, [legacyZone({ plan: "pro" })]);
  const { mkdirSync } = await import("node:fs");
  mkdirSync(`${root.dir}/modules/waf-group`, { recursive: true });
  root.write("modules/waf-group/main.tf", MODULE);
  root.write("modules/waf-group/versions.tf", MODULE_VERSIONS);
  await initAndApply(root);
  const started = await startApi(root);
  api = started.api;
  flags = await migrateZones(root, started.env, [ZONE_ID], "pending");
  expect(root.account().zones[ZONE_ID]!.migrated).toBe(true);
}, 600_000);
afterAll(async () => {
  await api?.close();
  h?.teardown();
});

describe("Pro zone, pending migration, for_each module and count instances", () => {
  it(
    "plan --out-dir, apply --yes: every legacy instance leaves the state, the blocks and the output go, the plan is clean; then 3.35.0 → 4.52.8 plans clean",
    async () => {
      const planDir = await planMigration(root, [...flags.configs, ...flags.rulesetIds]);
      placeRuleset(root, planDir);
      const applied = await tool(root, ["apply", ".", ...flags.rulesetIds, "--yes", "--format", "json"]);
      expect(applied.exitCode, applied.stdout + applied.stderr).toBe(0);
      const list = (await root.tf("state", "list")).stdout;
      expect(list).toMatch(/^cloudflare_ruleset\./m);
      expect(list).not.toMatch(/cloudflare_waf_/);
      expect(root.read("main.tf")).not.toContain("cloudflare_waf_package");
      expect(root.read("main.tf")).not.toContain('output "owasp_sensitivity"');
      expect(root.read("modules/waf-group/main.tf")).not.toContain("cloudflare_waf_group");
      // The settings were left as they were (state rm, never destroy): nothing reset to its default.
      expect(root.account().zones[ZONE_ID]!.waf!.packages.find((p) => p.id === OWASP_PACKAGE)!.sensitivity).toBe("low");
      // The removed output is the one change left, and the final step says how to save it: do that.
      const final = JSON.parse(applied.stdout).steps.find((s: { name: string }) => s.name === "final-plan");
      expect(final.detail).toContain("only root module outputs change");
      const saved = await root.tf("apply", "-refresh=false", "-auto-approve", "-input=false");
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stdout).toContain("0 added, 0 changed, 0 destroyed");
      await expectCleanPlan(root);

      await upgradeProvider(root, "versions.tf", "3.35.0", "4.52.8");
      await expectCleanPlan(root);
    },
    600_000,
  );
});
