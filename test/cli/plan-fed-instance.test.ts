// A root that only feeds a zone whose one ruleset another root holds (ZONE_SPLIT_ACROSS_ROOTS): its steps 1
// and 2 said to generate and copy its ruleset.tf, an empty file, as if it had a ruleset of its own. They
// now say there is nothing to copy and where the zone's ruleset is; its ruleset.tf declares nothing and its
// migrate.sh imports nothing. (Two roots, one zone: live/waf holds the package, live/rules two rules.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7";
const VERSIONS = `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "~> 3.35"\n    }\n  }\n}\n`;

function estate(): string {
  const top = tempDir("cfwm-fed-");
  const state = JSON.parse(readFileSync(path.join(TESTDATA, "split-stacks/legacy-waf/terraform.tfstate"), "utf8"));
  const roots = {
    waf: { main: `resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "${ZONE}"\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "off"\n  action_mode = "challenge"\n}\n`, keep: (r: { type: string }) => r.type === "cloudflare_waf_package" },
    rules: {
      main: `resource "cloudflare_waf_rule" "rules" {\n  for_each = {\n    "100000356" = "simulate"\n    "100015"    = "disable"\n  }\n  zone_id = "${ZONE}"\n  rule_id = each.key\n  mode    = each.value\n}\n`,
      keep: (r: { type: string; name: string }) => r.type === "cloudflare_waf_rule" && r.name === "rules",
    },
  };
  for (const [name, root] of Object.entries(roots)) {
    const dir = path.join(top, "live", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "versions.tf"), VERSIONS);
    writeFileSync(path.join(dir, "main.tf"), root.main);
    writeFileSync(path.join(dir, "terraform.tfstate"), JSON.stringify({ ...state, lineage: `lineage-${name}`, resources: state.resources.filter(root.keep) }, null, 1));
  }
  return top;
}

describe("plan --out-dir over roots sharing a zone: the root without the ruleset", () => {
  it("has nothing to generate, copy or import, and says where the zone's ruleset is", async () => {
    const top = estate();
    const r = await runCli(["plan", ".", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    const fed = path.join(top, "out/live/waf");
    const planMd = readFileSync(path.join(fed, "PLAN.md"), "utf8");
    const step = (n: number) => planMd.slice(planMd.indexOf(`### ${n}. `), planMd.indexOf(`### ${n + 1}. `));
    for (const n of [1, 2]) {
      expect(step(n)).not.toContain("```sh");
      expect(step(n)).toContain(`${ZONE}: its one http_request_firewall_managed ruleset is planned in live/rules (ZONE_SPLIT_ACROSS_ROOTS): nothing to generate or copy here`);
    }
    expect(planMd).not.toContain("cf-waf-migrate-ruleset");
    expect(planMd).toContain("`ruleset.tf`: no resource: this root plans no entry point ruleset, so step 2 has nothing to copy");
    expect(readFileSync(path.join(fed, "ruleset.tf"), "utf8")).toBe(`# No entry point ruleset in this root module: nothing to copy (PLAN.md step 2).\n# ${ZONE}: its ruleset is planned in live/rules (ZONE_SPLIT_ACROSS_ROOTS).\n`);
    const script = readFileSync(path.join(fed, "migrate.sh"), "utf8");
    expect(script).toContain("echo 'nothing to import here: this root module plans no entry point ruleset (PLAN.md step 2)'");
    expect(script).not.toContain("cloudflare_ruleset");
    expect(existsSync(path.join(fed, "imports.tf"))).toBe(false);

    // The root with the ruleset is as before.
    const owner = readFileSync(path.join(top, "out/live/rules/PLAN.md"), "utf8");
    expect(owner).toContain("cp '../../out/live/rules/ruleset.tf' ./cf-waf-migrate-ruleset.tf");
    expect(readFileSync(path.join(top, "out/live/rules/ruleset.tf"), "utf8")).toContain('resource "cloudflare_ruleset"');
  });
});
