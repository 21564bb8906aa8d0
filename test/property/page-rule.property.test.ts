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
});
