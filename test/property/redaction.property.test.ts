// Credentials echoed in transformed forms (issue 18 §3): the same property `npm run fuzz` runs, against src/.
import { describe, expect, it } from "vitest";
import { checkProperty, generators, properties } from "../support/generators.js";

describe("credential redaction", () => {
  it("a credential echoed cut, re-cased, spaced, hex or base64 never survives", async () => {
    const stats = await checkProperty(properties.credentialRedaction, { numRuns: 600, seed: 18 });
    for (const how of generators.ECHO_TRANSFORMS) expect(stats.get(`${how} redacted`), how).toBeGreaterThan(10);
  });
});
