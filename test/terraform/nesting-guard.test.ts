// Regression: nesting deep enough to overflow HashiCorp's parser broke its Go runtime for every later file
// (found by the fuzz run). It is now refused with a position before any recursive reader sees it.
import { describe, expect, it } from "vitest";
import { excessiveNesting, MAX_NESTING, parseConfigFile, parseConfigFileSelective } from "../../src/terraform/hcl/parse.js";

const deepList = (n: number) => `resource "cloudflare_waf_rule" "r" {\n  x = ${"[".repeat(n)}${"]".repeat(n)}\n}\n`;
const deepTemplate = (n: number) => `locals {\n  t = "${"${".repeat(n)}1${"}".repeat(n)}"\n}\n`;

describe("nesting guard", () => {
  it("finds the first bracket past the limit", () => {
    // The resource block's brace is level 1; "  x = " puts the first bracket in column 7.
    expect(excessiveNesting(deepList(MAX_NESTING - 1))).toBeNull();
    expect(excessiveNesting(deepList(MAX_NESTING))).toEqual({ line: 2, column: 6 + MAX_NESTING });
  });

  it.each([
    ["brackets", deepList(2000)],
    ["templates", deepTemplate(1500)],
  ])("deep %s: an error with line and column, and the parser still works for the next file", async (_name, text) => {
    const out = await parseConfigFile("deep.tf", text);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.line).toBe(2);
      expect(out.error.column).toBeGreaterThan(0);
      expect(out.error.message).toMatch(/Nesting too deep/);
    }
    const selective = await parseConfigFileSelective("deep.tf", text, { select: () => true, skim: true });
    expect(selective.ok).toBe(false);
    const next = await parseConfigFile("ok.tf", 'resource "cloudflare_waf_rule" "r" {\n  rule_id = "100015"\n}\n');
    expect(next.ok).toBe(true);
  });
});
