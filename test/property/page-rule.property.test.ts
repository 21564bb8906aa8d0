// Page Rule URL pattern to expression, on a wider alphabet than test/core/page-rule-pattern.property.test.ts:
// characters that need care in raw strings and wildcards (`"#`, `\`, `%`), mixed-case schemes, `**.` hosts.
import { describe, expect, it } from "vitest";
import { checkProperty, properties } from "../support/generators.js";

describe("Page Rule pattern to expression", () => {
  it("the expression matches exactly the URLs the pattern matches", async () => {
    const stats = await checkProperty(properties.pageRuleExpression, { numRuns: 800, seed: 31 });
    expect(stats.get("matches")).toBeGreaterThan(50);
    expect(stats.get("does not match")).toBeGreaterThan(50);
  });

  it("a target of any shape is an expression or an untranslatable-target refusal with a fix, in linear work", async () => {
    const stats = await checkProperty(properties.pageRuleHostileTargets, { numRuns: 300, seed: 18 });
    expect(stats.get("refused as untranslatable")).toBeGreaterThan(20);
    expect((stats.get("translated") ?? 0) + (stats.get("translated (long target)") ?? 0)).toBeGreaterThan(20);
  });
});
