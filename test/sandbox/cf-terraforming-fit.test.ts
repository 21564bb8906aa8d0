// `plan --from-cf-terraforming` keeps cf-terraforming's ruleset as written, fitted to the provider versions of
// steps 1-6 like the generated one: a rule's `ref` (which the Rulesets API returns and provider 3.x only
// computes) is taken out for a root on ~> 3.35, and the real terraform validates the result against the
// provider double at 3.35.0, where the text as cf-terraforming wrote it is rejected.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { TERRAFORM, TerraformHarness } from "./harness.js";

const CF = path.join(TESTDATA, "cf-terraforming-with-refs/cf-terraforming.tf");
const WAF = readFileSync(path.join(TESTDATA, "pinned-low/waf.tf"), "utf8");

function versionsTf(provider: string): string {
  return `terraform {\n  required_version = ">= 1.5"\n\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${provider}"\n    }\n  }\n}\n\nprovider "cloudflare" {}\n`;
}

let h: TerraformHarness;
beforeAll(() => {
  h = new TerraformHarness(["3.35.0"], TERRAFORM, { reattach: true });
});
afterAll(() => h?.teardown());

type F = { code: string; message: string; file: string | null; line: number | null };

async function plan(provider: string) {
  const root = h.root(`cf-${provider.replace(/\W+/g, "")}`, { "versions.tf": versionsTf(provider), "waf.tf": WAF });
  const out = path.join(tempDir("cfwm-cf-fit-"), "plan");
  const r = await runCli(["plan", ".", "--from-cf-terraforming", CF, "--out-dir", out, "--format", "json"], { cwd: root.dir });
  expect(r.exitCode, r.stderr).toBe(0);
  return { root, findings: (JSON.parse(r.stdout) as { findings: F[] }).findings, ruleset: readFileSync(path.join(out, "ruleset.tf"), "utf8") };
}

describe("cf-terraforming's ruleset fitted to the pinned provider", () => {
  it(
    "~> 3.35: the rules' ref lines are taken out (and said so), the rest kept byte for byte; terraform validate passes at 3.35.0 where the original fails",
    async () => {
      const { root, findings, ruleset } = await plan("~> 3.35");
      expect(ruleset).not.toMatch(/^\s+ref\s+=/m);
      expect(ruleset).toContain("# Left out: a rule's ref (computed by the provider before 4.2.0); it needs provider 4.2.0 or later");
      // Everything else as cf-terraforming wrote it.
      const original = readFileSync(CF, "utf8");
      const body = original.slice(original.indexOf("resource "));
      expect(ruleset).toContain(body.split("\n").filter((l) => !/^\s+ref\s+=/.test(l)).join("\n"));
      expect(findings.filter((f) => f.code === "RULESET_CONSTRUCT_OMITTED").map((f) => f.message)).toEqual([
        expect.stringContaining("a rule's ref (computed by the provider before 4.2.0) is left out"),
      ]);

      expect((await root.tf("init", "-input=false")).code).toBe(0);
      root.write("ruleset.tf", ruleset);
      const v = await root.tf("validate");
      expect(v.stderr).toBe("");
      expect(v.code).toBe(0);
      root.write("ruleset.tf", body);
      const raw = await root.tf("validate");
      expect(raw.code).toBe(1);
      expect(raw.stderr).toContain("Value for unconfigurable attribute");
      expect(raw.stderr).toContain('Can\'t configure a value for "rules.0.ref"');
    },
    300_000,
  );

  it("~> 3.4.0: refused for the import at the constraint's line, and the kept ruleset is written for ~> 3.35 and says so", async () => {
    const { findings, ruleset } = await plan("~> 3.4.0");
    expect(findings.filter((f) => f.code === "PROVIDER_FEATURE_MISSING")).toMatchObject([{ file: "versions.tf", line: 7 }]);
    expect(ruleset).toContain("# Written for provider ~> 3.35, not for the provider this root pins");
    expect(ruleset).not.toMatch(/^\s+ref\s+=/m);
    expect(ruleset).toContain("logging {");
  });
});
