// Regression: nesting deep enough to overflow HashiCorp's parser broke its Go runtime for every later file
// (found by the fuzz run). It is now refused with a position before any recursive reader sees it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { excessiveNesting, MAX_NESTING, nestingScan, parseConfigFile, parseConfigFileSelective } from "../../src/terraform/hcl/parse.js";

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

// The guard jumps from bracket to bracket (src/terraform/hcl/parse.ts); it must report exactly what the
// character-by-character scan it replaced reported, for the limit and for the deepest place.
function referenceScan(text: string, limit: number): { line: number; column: number } | null {
  let deepest: { line: number; column: number } | null = null;
  let max = 0;
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
    } else if (c === 123 || c === 91 || c === 40) {
      if (++depth > limit) return { line, column: i - lineStart + 1 };
      if (depth > max) {
        max = depth;
        deepest = { line, column: i - lineStart + 1 };
      }
    } else if (c === 125 || c === 93 || c === 41) {
      if (depth > 0) depth--;
    }
  }
  return limit === Infinity ? deepest : null;
}

describe("nesting scan", () => {
  it("reports what a character-by-character scan reports", () => {
    const unit = fc.constantFrom("{", "}", "[", "]", "(", ")", "\n", "\r", "a", " ", '"', "$", "%", "é", "😀", "\uD800", "\u2028");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), fc.constantFrom(0, 1, 2, 3, 5, MAX_NESTING, Infinity), (text, limit) => {
        expect(nestingScan(text, limit)).toEqual(referenceScan(text, limit));
      }),
      { numRuns: 20_000 },
    );
    for (const text of ["", "\n\n", "}}}", deepList(MAX_NESTING), deepTemplate(100), "a\n(\n[\n{x}\n]\n)\n"]) {
      for (const limit of [0, 2, MAX_NESTING, Infinity]) expect(nestingScan(text, limit)).toEqual(referenceScan(text, limit));
    }
  });
});
