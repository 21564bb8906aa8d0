// A zone across two roots (ZONE_SPLIT_ACROSS_ROOTS): live/waf holds the OWASP package, live/rules a rule of
// the Cloudflare package, both on one simulated account. (Regression: the root without the ruleset was
// planned with no state removals, "nothing to run", and kept its legacy rule in state past the migration.) `plan . --out-dir` over the estate writes one
// migration per root with the zone's one ruleset in live/waf; each root's migrate.sh --yes runs with the
// real terraform (both roots have legacy WAF, so `--ruleset-root` picks live/waf over the first in path
// order), and `terraform plan -detailed-exitcode` returns 0 in each root.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_DIR_ENV, type ApiServer } from "../../dist/sandbox/index.js";
import { runGroup } from "../e2e/helpers.js";
import { TERRAFORM } from "../sandbox/harness.js";
import { tempDir } from "../support/workdir.js";
import { expectCleanPlan, initAndApply, legacyZone, migrateZones, newHarness, OWASP_PACKAGE, providerBlock, SQLI_RULE, startApi, tool, ZONE_ID, type Root, type TerraformHarness } from "./harness.js";

const PACKAGE = `resource "cloudflare_waf_package" "owasp" {
  zone_id     = "${ZONE_ID}"
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "low"
  action_mode = "block"
}
`;

const RULE = `resource "cloudflare_waf_rule" "sqli_login" {
  zone_id = "${ZONE_ID}"
  rule_id = "${SQLI_RULE}"
  mode    = "challenge"
}
`;

let h: TerraformHarness;
let waf: Root;
let rules: Root;
let api: ApiServer;
let flags: { configs: string[]; rulesetIds: string[] };

beforeAll(async () => {
  h = newHarness(["3.35.0"], { reattach: true });
  waf = h.root("estate/live/waf", { "versions.tf": providerBlock("3.35.0"), "main.tf": PACKAGE }, [legacyZone()]);
  rules = h.root("estate/live/rules", { "versions.tf": providerBlock("3.35.0"), "main.tf": RULE });
  // One account behind both roots, as one Cloudflare account is.
  rules.env[ACCOUNT_DIR_ENV] = waf.accountDir;
  // Data directories and plugin caches outside the estate's tree (the harness puts them beside the root),
  // where a repository's would be: .terraform is never scanned, a sibling directory would be.
  for (const [r, name] of [[waf, "waf"], [rules, "rules"]] as const) {
    r.env.TF_DATA_DIR = path.join(h.base, `${name}.tf-data`);
    r.env.TF_PLUGIN_CACHE_DIR = path.join(h.base, "box");
  }
  await initAndApply(waf);
  await initAndApply(rules);
  const started = await startApi(waf);
  api = started.api;
  flags = await migrateZones(waf, started.env, [ZONE_ID], "pending");
}, 600_000);
afterAll(async () => {
  await api?.close();
  h?.teardown();
});

describe("a zone split across two roots", () => {
  it(
    "one ruleset in live/waf; each root's migrate.sh --yes; each root plans clean",
    async () => {
      const top = path.dirname(path.dirname(waf.dir));
      const states: string[] = [];
      for (const r of [waf, rules]) {
        const pulled = await r.tf("state", "pull");
        expect(pulled.code, pulled.stderr).toBe(0);
        const file = path.join(tempDir("cfwm-split-state-"), "state.json");
        writeFileSync(file, pulled.stdout);
        states.push("--state", `${path.relative(top, r.dir)}=${file}`);
      }
      const out = path.join(tempDir("cfwm-split-plan-"), "migration");
      const plan = await tool(waf, ["plan", top, ...states, ...flags.configs, ...flags.rulesetIds, "--ruleset-root", `${ZONE_ID}=live/waf`, "--out-dir", out, "--format", "json", "--quiet"]);
      expect(plan.exitCode, plan.stdout.slice(0, 3000) + plan.stderr).toBe(0);
      const estate = readFileSync(path.join(out, "ESTATE.md"), "utf8");
      const wafRuleset = readFileSync(path.join(out, "live/waf/ruleset.tf"), "utf8");
      expect(wafRuleset).toContain("cloudflare_ruleset");
      // The ruleset lives in one root: the other only removes its own legacy resources.
      expect(readFileSync(path.join(out, "live/rules/ruleset.tf"), "utf8")).not.toContain('resource "cloudflare_ruleset"');
      expect(estate).toMatch(/`live\/rules`: [^\n]*1 legacy resource instance removed from state/);
      waf.write("cf-waf-migrate-ruleset.tf", wafRuleset);
      // ESTATE.md's order: the root that feeds the ruleset first, then the one that imports it.
      expect(estate.indexOf("`live/rules`:")).toBeLessThan(estate.indexOf("`live/waf`:"));
      for (const [r, sub] of [[rules, "live/rules"], [waf, "live/waf"]] as const) {
        expect(estate).toContain(sub);
        const run = await runGroup("bash", [path.join(out, sub, "migrate.sh"), "--yes"], r.dir, { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: h.base, ...r.env, TF: TERRAFORM });
        expect(run.code, `${sub}: ${run.stdout}${run.stderr}`).toBe(0);
        expect((await r.tf("state", "list")).stdout).not.toContain("cloudflare_waf_");
      }
      await expectCleanPlan(waf);
      await expectCleanPlan(rules);
    },
    600_000,
  );
});
