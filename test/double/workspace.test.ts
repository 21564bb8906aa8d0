// A root whose state lives in a non-default workspace ("prod", selected with `terraform workspace new`, so
// in the data directory's environment file) and whose configuration branches on terraform.workspace. The dry
// run's rehearsal must plan its copy in that same workspace (in "default" the filter's count would be 0 and
// the final plan would destroy it), then apply --yes migrates for real and the plan is clean. The ruleset
// has a count on terraform.workspace as well: it is imported into its instance, [0].
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectCleanPlan, legacyZone, migrateZones, newHarness, OWASP_PACKAGE, placeRuleset, planMigration, providerBlock, startApi, tool, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";
import type { ApiServer } from "../../dist/sandbox/index.js";

const WAF = `locals {
  # Only production has the uptime monitor's bypass.
  monitored = terraform.workspace == "prod"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = "${ZONE_ID}"
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "low"
  action_mode = "block"
}

resource "cloudflare_filter" "uptime" {
  count       = local.monitored ? 1 : 0
  zone_id     = "${ZONE_ID}"
  description = "Uptime monitor"
  expression  = "(http.user_agent contains \\"UptimeRobot\\")"
}
`;

let h: TerraformHarness;
let root: Root;
let api: ApiServer;
let rulesetIds: string[];

beforeAll(async () => {
  h = newHarness(["3.35.0"], { reattach: true });
  root = h.root("ws", { "versions.tf": providerBlock("3.35.0"), "waf.tf": WAF }, [legacyZone()]);
  expect((await root.tf("init", "-input=false")).code).toBe(0);
  const ws = await root.tf("workspace", "new", "prod");
  expect(ws.code, ws.stderr).toBe(0);
  const applied = await root.tf("apply", "-auto-approve", "-input=false");
  expect(applied.code, applied.stderr).toBe(0);
  expect(applied.stdout).toContain("2 added");
  const started = await startApi(root);
  api = started.api;
  const migrated = await migrateZones(root, started.env, [ZONE_ID], "pending");
  rulesetIds = migrated.rulesetIds;
  placeRuleset(root, await planMigration(root, [...migrated.configs, ...rulesetIds]));
  // The ruleset too is per workspace, as a team with one zone per workspace writes it: apply imports into
  // its instance (terraform refuses the bare address of a counted resource).
  const ruleset = root.read("cf-waf-migrate-ruleset.tf");
  root.write("cf-waf-migrate-ruleset.tf", ruleset.replace(/^(resource "cloudflare_ruleset" "[^"]+" \{\n)/m, '$1  count = terraform.workspace == "prod" ? 1 : 0\n\n'));
  expect(root.read("cf-waf-migrate-ruleset.tf")).toContain("count = terraform.workspace");
}, 600_000);
afterAll(async () => {
  await api?.close();
  h?.teardown();
});

describe("a non-default workspace", () => {
  it(
    "the rehearsal plans in the selected workspace (apply --workspace, else the data directory's); apply --yes; terraform plan -detailed-exitcode returns 0",
    async () => {
      // apply --workspace prod while the data directory selects "default": the rehearsal follows the flag.
      expect((await root.tf("workspace", "select", "default")).code).toBe(0);
      const flagged = await tool(root, ["apply", ".", ...rulesetIds, "--workspace", "prod", "--format", "json"]);
      expect(JSON.parse(flagged.stdout).rehearsal.status, flagged.stdout).toBe("passed");
      expect((await root.tf("workspace", "select", "prod")).code).toBe(0);
      const dry = await tool(root, ["apply", ".", ...rulesetIds, "--format", "json"]);
      const report = JSON.parse(dry.stdout);
      expect(report.rehearsal.status, JSON.stringify(report.rehearsal, null, 2)).toBe("passed");
      expect(report.rehearsal.steps.at(-1).detail).toContain("no changes");
      expect(dry.exitCode).toBe(0);
      const real = await tool(root, ["apply", ".", ...rulesetIds, "--yes", "--format", "json"]);
      expect(real.exitCode, real.stdout + real.stderr).toBe(0);
      expect(JSON.parse(real.stdout).steps[1].commands).toEqual([expect.stringMatching(/^terraform import -input=false -no-color 'cloudflare_ruleset\.[a-z0-9_]+\[0\]' zone\//)]);
      const list = await root.tf("state", "list");
      expect(list.stdout).toContain("cloudflare_filter.uptime[0]");
      expect(list.stdout).toMatch(/^cloudflare_ruleset\.[a-z0-9_]+\[0\]$/m);
      expect(list.stdout).not.toContain("cloudflare_waf_package");
      await expectCleanPlan(root);
      // Still in "prod": the default workspace's state was never written.
      expect((await root.tf("workspace", "show")).stdout.trim()).toBe("prod");
    },
    600_000,
  );
});
