// The sort keys a big scan's merge compares as plain strings give exactly the order of compareText and
// compareFindings, on generated names that share prefixes, differ only in case, hold every printable ASCII
// character, and (no key then) characters outside it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareFindings, findingSortKey, type FindingOrderKey } from "../../src/core/findings.js";
import { compareText, textOrderKey } from "../../src/core/text-order.js";

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
// Few characters, so that generated names share prefixes and differ only in case often.
const near = fc.constantFrom("a", "A", "b", "B", "_", "-", ".", "/", "0", "9", " ", "z", "Z");
const name = fc.oneof(
  fc.array(near, { maxLength: 6 }).map((cs) => cs.join("")),
  fc.array(printable, { maxLength: 8 }).map((cs) => cs.join("")),
  fc.constantFrom("modules/waf/main.tf", "Modules/waf/main.tf", "modules/waf", "café.tf", "zone\u00e9"),
);
const orderKey: fc.Arbitrary<FindingOrderKey> = fc.record({
  severity: fc.constantFrom("error", "warning", "info"),
  zoneId: fc.option(name, { freq: 4 }),
  file: fc.option(name, { freq: 4 }),
  line: fc.option(fc.constantFrom(1, 2, 9, 10, 100, 12345), { freq: 4 }),
  code: fc.constantFrom("LEGACY_WAF_PACKAGE", "VALUE_UNRESOLVED", "LEGACY_WAF_RULE"),
  address: fc.option(name, { freq: 3 }),
  root: fc.option(name, { freq: 3 }),
  workspace: fc.option(fc.constantFrom("default", "prod", "Prod", "eu"), { freq: 3 }),
}) as fc.Arbitrary<FindingOrderKey>;

describe("sort keys", () => {
  it("order printable ASCII as compareText does, and are null for anything else", () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        const ka = textOrderKey(a);
        const kb = textOrderKey(b);
        expect(ka === null).toBe(!/^[\x20-\x7e]*$/.test(a));
        if (ka !== null && kb !== null) expect(byString(ka, kb)).toBe(sign(compareText(a, b)));
      }),
      { numRuns: 5000 },
    );
  });

  it("order findings as compareFindings does, field by field", () => {
    fc.assert(
      fc.property(orderKey, orderKey, (a, b) => {
        const ka = findingSortKey(a);
        const kb = findingSortKey(b);
        if (ka !== null && kb !== null) expect(byString(ka, kb)).toBe(sign(compareFindings(a, b)));
      }),
      { numRuns: 5000 },
    );
  });

  it("are equal exactly when the fields compare equal", () => {
    const a: FindingOrderKey = { severity: "warning", zoneId: "z", file: "a.tf", line: 3, code: "VALUE_UNRESOLVED", address: "x", root: "live", workspace: "default" };
    expect(findingSortKey({ ...a })).toBe(findingSortKey(a));
    expect(findingSortKey({ ...a, file: "A.tf" })).not.toBe(findingSortKey(a));
    expect(findingSortKey({ ...a, file: "café.tf" })).toBeNull();
  });
});
