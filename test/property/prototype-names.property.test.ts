// Input keys that are also Object.prototype members (issue 18 §1): the same property `npm run fuzz` runs,
// against src/. Each case is compared with its twin whose names are harmless.
import { describe, expect, it } from "vitest";
import { checkProperty, properties } from "../support/generators.js";

describe("names from Object.prototype", () => {
  it("in labels, attribute names, map keys, module names, for_each keys, state keys and zone ids behave like any other name", async () => {
    const stats = await checkProperty(properties.prototypeNames, { numRuns: 40, seed: 18 });
    expect(stats.get("same as renamed twin (with state)")).toBeGreaterThan(5);
    expect(stats.get("same as renamed twin (config only)")).toBeGreaterThan(5);
  });
});
