// What `cf-waf-migrate plan` generates, checked against the real provider schemas through the double and
// the real terraform: the block-syntax ruleset (provider 3.x/4.x) validates under 3.35.0 and 4.52.8, and
// the attribute-syntax one generated for provider 5 is refused under 4.52.8, as the real provider would.

import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";
import { providerBlock, TERRAFORM, TerraformHarness } from "./harness.js";

let h: TerraformHarness;
beforeAll(() => {
  h = new TerraformHarness(["3.35.0", "4.52.8"], TERRAFORM, { reattach: true });
});
afterAll(() => h?.teardown());

async function generatedRuleset(major: "4" | "5"): Promise<string> {
  const out = tempDir("cfwm-gen-");
  const fixture = copyFixture("multi-zone");
  const r = await runCli(["plan", fixture, "--state", path.join(fixture, "terraform.tfstate"), "--provider-major", major, "--out-dir", out, "--format", "json"]);
  expect(r.exitCode).toBe(0);
  return readFileSync(path.join(out, "ruleset.tf"), "utf8");
}

/** The zones the generated file refers to, as plain resources (their values do not matter to validate). */
function zoneStubs(ruleset: string): string {
  const names = [...new Set([...ruleset.matchAll(/cloudflare_zone\.([A-Za-z0-9_-]+)/g)].map((m) => m[1]!))];
  expect(names.length).toBeGreaterThan(0);
  return names.map((n) => `resource "cloudflare_zone" "${n}" {\n  account_id = "f037e56e89293a057740de681ac9abbe"\n  zone       = "${n}.example.com"\n}\n`).join("\n");
}

describe("generated ruleset.tf against the provider double", () => {
  it(
    "the block-syntax ruleset validates under 3.35.0 and 4.52.8",
    async () => {
      const ruleset = await generatedRuleset("4");
      expect(ruleset).toMatch(/^\s+rules \{/m);
      for (const version of ["3.35.0", "4.52.8"]) {
        const root = h.root(`generated-${version}`, { "versions.tf": providerBlock(version), "zones.tf": zoneStubs(ruleset), "ruleset.tf": ruleset });
        expect((await root.tf("init", "-input=false")).code).toBe(0);
        const v = await root.tf("validate");
        expect(v.stderr).toBe("");
        expect(v.code).toBe(0);
      }
    },
    600_000,
  );

  it(
    "the attribute-syntax ruleset generated for provider 5 is refused under 4.52.8",
    async () => {
      const ruleset = await generatedRuleset("5");
      expect(ruleset).toMatch(/^\s+rules = \[/m);
      const root = h.root("generated-v5-under-4", { "versions.tf": providerBlock("4.52.8"), "zones.tf": zoneStubs(ruleset), "ruleset.tf": ruleset });
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      const v = await root.tf("validate");
      expect(v.code).toBe(1);
      expect(v.stderr).toContain('An argument named "rules" is not expected here. Did you mean to define a block of type "rules"?');
    },
    600_000,
  );

  it(
    "a ruleset with settings unknown offline (TODOs, no invented paranoia level or action, disabled possible-bypass skip rules) validates under 3.35.0 and 4.52.8",
    async () => {
      for (const [fixture, args] of [
        ["values-from-caller/stacks/unset", []],
        ["values-from-caller/stacks/unset", ["--var", "waf_sensitivity=low"]],
        ["values-tfvars/without-tfvars", []],
      ] as const) {
        const out = tempDir("cfwm-gen-");
        const r = await runCli(["plan", copyFixture(fixture), ...args, "--provider-major", "4", "--out-dir", out, "--format", "json"]);
        expect(r.exitCode).toBe(0);
        const ruleset = readFileSync(path.join(out, "ruleset.tf"), "utf8");
        expect(ruleset).toContain("# TODO: VALUE_UNRESOLVED");
        for (const version of ["3.35.0", "4.52.8"]) {
          const root = h.root(`unresolved-${fixture.replace(/\W/g, "-")}-${args.length}-${version}`, { "versions.tf": providerBlock(version), "ruleset.tf": ruleset });
          expect((await root.tf("init", "-input=false")).code).toBe(0);
          const v = await root.tf("validate");
          expect(v.stderr).toBe("");
          expect(v.code).toBe(0);
        }
      }
    },
    600_000,
  );
});
