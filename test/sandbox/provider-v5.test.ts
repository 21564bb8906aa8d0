// The 5.x provider through the double: protocol 6, `cloudflare_ruleset` with nested attributes (attribute
// syntax) transcribed from the provider's source at v5.22.0, and the `zones/<zone_id>/<ruleset_id>` import
// id. What `plan --provider-major 5` writes for step 7 validates with the real terraform; a misspelled
// attribute and the 3.x/4.x block syntax are refused as the real provider's schema refuses them.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { equivalentConfig, migrate } from "../../dist/sandbox/api/migration.js";
import { legacyZone, OWASP_PACKAGE, providerBlock, type Root, TERRAFORM, TerraformHarness, ZONE_ID } from "./harness.js";

const V5 = "5.22.0";

let h: TerraformHarness;
let root: Root;
const generated: Record<"4" | "5", { ruleset: string; imports: string; plan: string }> = {} as never;

beforeAll(async () => {
  h = new TerraformHarness([V5], TERRAFORM, { reattach: true });
  // testdata/pinned-low raised as its plan says (~> 3.35, Terraform >= 1.5).
  const fixture = tempDir("cfwm-v5-root-");
  cpSync(path.join(TESTDATA, "pinned-low"), fixture, { recursive: true });
  const versions = readFileSync(path.join(fixture, "versions.tf"), "utf8").replace("~> 3.4.0", "~> 3.35").replace("~> 1.3.0", ">= 1.5");
  writeFileSync(path.join(fixture, "versions.tf"), versions);
  for (const major of ["4", "5"] as const) {
    const out = path.join(tempDir("cfwm-v5-plan-"), "plan");
    const r = await runCli(["plan", ".", "--provider-major", major, "--out-dir", out, "--format", "json"], { cwd: fixture });
    expect(r.exitCode, r.stderr).toBe(0);
    const read = (f: string) => readFileSync(path.join(out, f), "utf8");
    generated[major] = { ruleset: read("ruleset.tf"), imports: read("imports.tf"), plan: read("PLAN.md") };
  }
  root = h.root("v5", { "versions.tf": providerBlock(`~> ${V5.split(".").slice(0, 2).join(".")}`) });
  const init = await root.tf("init", "-input=false");
  expect(init.code, init.stderr).toBe(0);
}, 300_000);
afterAll(() => h?.teardown());

async function validate(ruleset: string, imports = "") {
  root.write("ruleset.tf", ruleset);
  root.write("imports.tf", imports);
  return root.tf("validate");
}

describe("provider 5.x (protocol 6) in the double", () => {
  it("terraform init installs 5.22.0 from the mirror and talks protocol 6 to it", () => {
    expect(root.read(".terraform.lock.hcl")).toContain(`version     = "${V5}"`);
  });

  it(
    "step 7's files for 5.x (plan --provider-major 5: attribute syntax, zones/<zone_id>/<ruleset_id> import) validate",
    async () => {
      const { ruleset, imports, plan } = generated["5"];
      expect(ruleset).toMatch(/^\s+rules = \[/m);
      expect(imports).toMatch(/id = "zones\/0da42c8d2132a9ddaf714f9e7c920711\//);
      expect(plan).toContain("zones/");
      const v = await validate(ruleset, imports);
      expect(v.stderr).toBe("");
      expect(v.code).toBe(0);
    },
    120_000,
  );

  it(
    "the plan for 3.x/4.x says what changes at the upgrade to 5.x, and its block syntax is refused under 5.x",
    async () => {
      expect(generated["4"].plan).toContain("provider 5.x writes `rules = [ { … } ]`");
      expect(generated["4"].plan).toContain("its import id is `zones/<zone_id>/<ruleset_id>`");
      const v = await validate(generated["4"].ruleset);
      expect(v.code).toBe(1);
      expect(v.stderr).toContain('Blocks of type "rules" are not expected here. Did you mean to define argument "rules"? If so, use the equals sign to assign it a value.');
    },
    120_000,
  );

  it(
    "a misspelled attribute is refused, at the top level and inside a rule",
    async () => {
      const top = await validate(generated["5"].ruleset.replace("  zone_id     =", "  zone_idd    ="));
      expect(top.code).toBe(1);
      expect(top.stderr).toContain('An argument named "zone_idd" is not expected here. Did you mean "zone_id"?');
      const inner = await validate(generated["5"].ruleset.replace('      expression  = "true"', '      expresion   = "true"'));
      expect(inner.code).toBe(1);
      expect(inner.stderr).toContain('Inappropriate value for attribute "rules": element 1: attribute "expression" is required.');
    },
    120_000,
  );
  it(
    "a migrated zone's entry point imports with zones/<zone_id>/<ruleset_id> into the generated 5.x ruleset: 1 to import, 0 to change; then plan -detailed-exitcode is 0; the 4.x id form is refused",
    async () => {
      // The zone migrated on the service: its entry point is the equivalent configuration of its legacy WAF.
      const zone = legacyZone();
      const config = equivalentConfig(zone);
      const rulesetId = migrate(zone, "pending", config).id;
      const dir = tempDir("cfwm-v5-import-");
      writeFileSync(path.join(dir, "versions.tf"), readFileSync(path.join(TESTDATA, "pinned-low/versions.tf"), "utf8").replace("~> 3.4.0", "~> 3.35").replace("~> 1.3.0", ">= 1.5"));
      writeFileSync(path.join(dir, "waf.tf"), `resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "${ZONE_ID}"\n  package_id  = "${OWASP_PACKAGE}"\n  sensitivity = "high"\n  action_mode = "challenge"\n}\n`);
      const configFile = path.join(dir, "config.json");
      writeFileSync(configFile, JSON.stringify({ result: config, success: true, errors: [], messages: [] }));
      const out = path.join(tempDir("cfwm-v5-import-plan-"), "plan");
      const r = await runCli(["plan", ".", "--provider-major", "5", "--config-json", `${ZONE_ID}=${configFile}`, "--ruleset-id", `${ZONE_ID}=${rulesetId}`, "--out-dir", out, "--format", "json"], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(0);
      const imports = readFileSync(path.join(out, "imports.tf"), "utf8");
      expect(imports).toContain(`id = "zones/${ZONE_ID}/${rulesetId}"`);

      const after = h.root("v5-import", { "versions.tf": providerBlock(V5), "ruleset.tf": readFileSync(path.join(out, "ruleset.tf"), "utf8"), "imports.tf": imports }, [zone]);
      expect((await after.tf("init", "-input=false")).code).toBe(0);
      const planned = await after.tf("plan", "-input=false");
      expect(planned.stderr).toBe("");
      expect(planned.stdout).toContain("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.");
      const applied = await after.tf("apply", "-auto-approve", "-input=false");
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout).toContain("Resources: 1 imported, 0 added, 0 changed, 0 destroyed.");
      const clean = await after.tf("plan", "-detailed-exitcode", "-input=false");
      expect(clean.code, clean.stdout + clean.stderr).toBe(0);

      const old = h.root("v5-import-4x-id", { "versions.tf": providerBlock(V5), "ruleset.tf": readFileSync(path.join(out, "ruleset.tf"), "utf8"), "imports.tf": imports.replace('"zones/', '"zone/') }, [zone]);
      expect((await old.tf("init", "-input=false")).code).toBe(0);
      const refused = await old.tf("plan", "-input=false");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("invalid discriminator segment - <{accounts|zones}/{account_id|zone_id}>: expected discriminator to be one of {accounts|zones}");
    },
    300_000,
  );
});
