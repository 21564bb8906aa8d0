// Issue #17 on the Terraform expression evaluator: nested conditionals, calls, for, templates and try, and
// chains of locals that double a list or a string, evaluate in steps linear in the text (the fuzz run's
// expression-cost property, here against src/ with a fixed seed), Unknown past the bound, never a crash.
import { describe, expect, it } from "vitest";
import { checkProperty, properties } from "../support/generators.js";

describe("expression evaluation cost", () => {
  it("linear steps for nested shapes; doubling locals stop at the bound", async () => {
    const stats = await checkProperty(properties.expressionCost, { numRuns: 150, seed: 17 });
    expect(stats.get("nested: known")).toBeGreaterThan(10);
    expect((stats.get("doubling list: unknown: over the bound") ?? 0) + (stats.get("doubling string: unknown: over the bound") ?? 0)).toBeGreaterThan(0);
  });
});
