import { describe, expect, it } from "vitest";
import { withCount } from "../../src/plan/artifacts.js";

const COUNT = 'terraform.workspace == "eu" ? 1 : 0';

describe("cf-terraforming's kept resource limited to one workspace", () => {
  it("gets count as its first line", () => {
    expect(withCount('resource "cloudflare_ruleset" "x" {\n  kind = "zone"\n}\n', COUNT)).toBe(`resource "cloudflare_ruleset" "x" {\n  count = ${COUNT}\n\n  kind = "zone"\n}\n`);
  });

  it("one with count or for_each already is left as written, with a TODO (two would not load)", () => {
    for (const meta of ["count    = 1", 'for_each = toset(["a"])']) {
      const text = `resource "cloudflare_ruleset" "x" {\n  ${meta}\n  kind = "zone"\n}\n`;
      const out = withCount(text, COUNT);
      expect(out.endsWith(text)).toBe(true);
      expect(out).toMatch(/^# TODO: limit this resource to its workspace/);
    }
  });
});
