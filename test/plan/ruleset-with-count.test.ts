import { describe, expect, it } from "vitest";
import { isRepeated } from "../../src/core/extracted-instance.js";
import { withCount } from "../../src/plan/artifacts.js";
import { extractManagedRulesets } from "../../src/terraform/cf-terraforming/read.js";

const COUNT = 'terraform.workspace == "eu" ? 1 : 0';

/** As plan does: the kept resource read from cf-terraforming's file, then limited to the workspace. */
async function limited(text: string): Promise<string> {
  const read = await extractManagedRulesets("cf.tf", text);
  if (!read.ok) throw new Error(read.error.message);
  expect(read.rulesets).toHaveLength(1);
  return withCount(read.rulesets[0]!.text, COUNT, isRepeated(read.rulesets[0]!.repetition));
}

describe("cf-terraforming's kept resource limited to one workspace", () => {
  it("gets count as its first line", async () => {
    const text = 'resource "cloudflare_ruleset" "x" {\n  kind  = "zone"\n  phase = "http_request_firewall_managed"\n}\n';
    expect(await limited(text)).toBe(`resource "cloudflare_ruleset" "x" {\n  count = ${COUNT}\n\n  kind  = "zone"\n  phase = "http_request_firewall_managed"\n}\n`);
  });

  it("one with count or for_each already is left as written, with a TODO (two would not load)", async () => {
    for (const meta of ["count    = 1", 'for_each = toset(["a"])']) {
      const text = `resource "cloudflare_ruleset" "x" {\n  ${meta}\n  kind  = "zone"\n  phase = "http_request_firewall_managed"\n}\n`;
      const out = await limited(text);
      expect(out.endsWith(text)).toBe(true);
      expect(out).toMatch(/^# TODO: limit this resource to its workspace/);
    }
  });
});
