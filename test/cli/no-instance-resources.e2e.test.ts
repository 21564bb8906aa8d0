// Every command's JSON `resources[]` marks a block whose count/for_each gives no instance (`noInstances`),
// whichever way the command reads the estate: scan analyses instances as they load (estate/stream.ts),
// gate and plan load the whole estate first.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";

describe("resources[] of a block with no instance", () => {
  it("scan, gate and plan all mark it noInstances, and only it", async () => {
    const dir = path.join(tempDir("cfwm-noinst-"), "live");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "waf.tf"),
      `variable "environment" {\n  default = "production"\n}\n\nlocals {\n  staging_only = { staging = 1, production = 0 }\n}\n\n` +
        `resource "cloudflare_waf_rule" "staging" {\n  count   = local.staging_only[var.environment]\n  zone_id = "${ZONE}"\n  rule_id = "100000"\n  mode    = "block"\n}\n\n` +
        `resource "cloudflare_waf_rule" "always" {\n  zone_id = "${ZONE}"\n  rule_id = "100001"\n  mode    = "simulate"\n}\n`,
    );
    const runs = await Promise.all(["scan", "gate", "plan"].map((cmd) => runCli([cmd, dir, "--format", "json", "--fail-on", "never"])));
    for (const r of runs) {
      expect(r.exitCode, r.stderr).toBe(0);
      const resources = (JSON.parse(r.stdout) as { resources: { address: string; noInstances?: true }[] }).resources;
      expect(resources.map((x) => [x.address, x.noInstances ?? false]).sort()).toEqual([
        ["cloudflare_waf_rule.always", false],
        ["cloudflare_waf_rule.staging", true],
      ]);
    }
  });
});
