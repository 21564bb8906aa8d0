// OpenTofu, the same way as terraform: `tofu init` installs the double from the mirror (which holds the
// packages under registry.opentofu.org too, the host tofu resolves `cloudflare/cloudflare` on), `tofu apply`
// creates the legacy WAF, the service migrates the zone, `apply --terraform-bin tofu --yes` runs the plan
// and `tofu plan -detailed-exitcode` returns 0.
//
// The scenario runs where `tofu` is on PATH. These machines cannot install it (Debian has no package, and
// building it needs Go modules from the network), so here only the mirror's layout for it is checked.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OPENTOFU_PROVIDER_SOURCE, packageHash, PROVIDER_SOURCE } from "../../dist/sandbox/mirror.js";
import { expectCleanPlan, initAndApply, legacyZone, PACKAGE_AND_GROUP, migrateZones, placeRuleset, planMigration, providerBlock, startApi, tool, TerraformHarness, ZONE_ID } from "./harness.js";

const TOFU = (process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, "tofu")).find((f) => existsSync(f));

const MAIN = PACKAGE_AND_GROUP;

const harnesses: TerraformHarness[] = [];
afterAll(() => {
  for (const h of harnesses) h.teardown();
});

describe("OpenTofu", () => {
  it("the mirror serves every version under OpenTofu's registry host too, byte for byte, and the CLI configuration admits it", () => {
    const h = new TerraformHarness(["3.35.0", "4.52.8"]);
    harnesses.push(h);
    for (const version of h.mirror.versions) {
      const name = `terraform-provider-cloudflare_v${version}`;
      const forTerraform = path.join(h.mirror.mirrorDir, PROVIDER_SOURCE, version, "linux_amd64", name);
      const forTofu = path.join(h.mirror.mirrorDir, OPENTOFU_PROVIDER_SOURCE, version, "linux_amd64", name);
      expect(readFileSync(forTofu, "utf8")).toBe(readFileSync(forTerraform, "utf8"));
      expect(packageHash(h.mirror.mirrorDir, version)).toMatch(/^h1:/);
    }
    expect(readFileSync(h.mirror.cliConfigFile, "utf8")).toContain(`include = ["${PROVIDER_SOURCE}", "${OPENTOFU_PROVIDER_SOURCE}"]`);
  });

  it.runIf(TOFU !== undefined)(
    "tofu init/apply, the service migration, apply --terraform-bin tofu --yes, then tofu plan -detailed-exitcode returns 0",
    async () => {
      const h = new TerraformHarness(["3.35.0"], TOFU!);
      harnesses.push(h);
      const root = h.root("tofu", { "versions.tf": providerBlock("3.35.0"), "main.tf": MAIN }, [legacyZone({ plan: "business" })]);
      await initAndApply(root);
      const { api, env } = await startApi(root);
      try {
        const flags = await migrateZones(root, env, [ZONE_ID], "pending");
        const planDir = await planMigration(root, [...flags.configs, ...flags.rulesetIds]);
        placeRuleset(root, planDir);
        const applied = await tool(root, ["apply", ".", ...flags.rulesetIds, "--terraform-bin", TOFU!, "--yes", "--format", "json"]);
        expect(applied.exitCode, applied.stdout + applied.stderr).toBe(0);
        expect((JSON.parse(applied.stdout) as { terraform: { flavor: string } }).terraform.flavor).toBe("tofu");
        expect(root.read("main.tf")).not.toContain("cloudflare_waf_");
        await expectCleanPlan(root);
      } finally {
        await api.close();
      }
    },
    900_000,
  );
});
