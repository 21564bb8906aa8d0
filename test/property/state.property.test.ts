// The state reader never crashes on broken or odd states, and lists exactly the addresses a state holds.
import { describe, expect, it } from "vitest";
import { checkProperty, properties } from "../support/generators.js";

describe("state JSON under mutation", () => {
  it("parseStateText never throws; a JSON syntax error names file, line and column", async () => {
    const stats = await checkProperty(properties.stateParse, { numRuns: 400, seed: 11 });
    expect(stats.get("read")).toBeGreaterThan(0);
    expect(stats.get("JSON syntax error with line and column")).toBeGreaterThan(0);
  });

  it("generated states (v4 and show -json) list exactly their instance addresses", async () => {
    const stats = await checkProperty(properties.stateAddresses, { numRuns: 200, seed: 12 });
    expect(stats.get("state v4")).toBeGreaterThan(0);
    expect(stats.get("show -json")).toBeGreaterThan(0);
  });
});
