// Terraform addresses format and parse back for arbitrary keys, and the quoting is HCL's.
import { describe, expect, it } from "vitest";
import { formatAddress, parseAddress } from "../../src/core/address.js";
import { checkProperty, properties } from "../support/generators.js";

describe("resource addresses", () => {
  it("format then parse gives the same address (quotes, backslashes, unicode, numbers as strings)", async () => {
    const stats = await checkProperty(properties.addressRoundTrip, { numRuns: 600, seed: 21 });
    expect(stats.get("string key")).toBeGreaterThan(0);
    expect(stats.get("number key")).toBeGreaterThan(0);
  });

  it("a string key that looks like a number stays a string, and a number stays a number", () => {
    for (const key of ["0", "01", "-1", "1e3"]) {
      const text = formatAddress({ modules: [], mode: "managed", type: "t", name: "n", key });
      expect(parseAddress(text).key).toBe(key);
    }
    expect(parseAddress(formatAddress({ modules: [], mode: "managed", type: "t", name: "n", key: 7 })).key).toBe(7);
  });

  it("quoteHclString(key) is a quoted string hcl2json decodes back to the key", async () => {
    await checkProperty(properties.addressKeyDecoding, { numRuns: 150, seed: 22 });
  });
});
