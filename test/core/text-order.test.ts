// compareText answers printable-ASCII pairs without ICU (src/core/text-order.ts): every answer must be the
// en-US collator's, and anything else still goes to the collator.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ASCII_SYMBOL_ORDER, compareText } from "../../src/core/text-order.js";

const COLLATOR = new Intl.Collator("en-US");
const sign = (n: number) => Math.sign(n);
const PRINTABLE = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));

describe("compareText", () => {
  it("creates no collator (ICU's collation data) while every string is printable ASCII", async () => {
    vi.resetModules();
    const real = Intl.Collator;
    let created = 0;
    Intl.Collator = class extends real {
      constructor(...args: ConstructorParameters<typeof real>) {
        super(...args);
        created++;
      }
    } as typeof real;
    try {
      const fresh = await import("../../src/core/text-order.js");
      expect(fresh.compareText("cloudflare_waf_rule.b", "cloudflare_waf_rule.B")).toBe(-1);
      expect(created).toBe(0);
      expect(fresh.compareText("waf-zürich.tf", "waf-zz.tf")).toBe(-1);
      expect(created).toBe(1);
    } finally {
      Intl.Collator = real;
    }
  });

  it("orders printable ASCII as en-US's collator does, character by character", () => {
    const byCollator = [...PRINTABLE].sort((a, b) => COLLATOR.compare(a, b) || (a < b ? -1 : 1));
    const ours = [...PRINTABLE].sort((a, b) => compareText(a, b) || (a < b ? -1 : 1));
    expect(ours).toEqual(byCollator);
    expect([...ASCII_SYMBOL_ORDER].sort()).toEqual(PRINTABLE.filter((c) => !/[a-z]/i.test(c)).sort());
    for (const a of PRINTABLE) for (const b of PRINTABLE) expect(sign(compareText(a, b)), `${a} ${b}`).toBe(sign(COLLATOR.compare(a, b)));
  });

  it("agrees with the collator on pairs of printable ASCII strings (prefixes, case, symbols)", () => {
    // A small alphabet makes shared prefixes, case-only differences and equal strings common.
    const small = fc.string({ unit: fc.constantFrom("a", "A", "b", "B", "_", "-", ".", " ", "0", "9", "[", '"', "|", "~", "$") });
    const any = fc.string({ unit: fc.constantFrom(...PRINTABLE) });
    for (const gen of [small, any]) {
      fc.assert(
        fc.property(gen, gen, (a, b) => {
          expect(sign(compareText(a, b))).toBe(sign(COLLATOR.compare(a, b)));
          expect(sign(compareText(a + b, a))).toBe(sign(COLLATOR.compare(a + b, a)));
          expect(sign(compareText(a.toUpperCase() + b, a + b))).toBe(sign(COLLATOR.compare(a.toUpperCase() + b, a + b)));
        }),
        { numRuns: 20_000 },
      );
    }
  });

  it("leaves everything else to the collator: accents, tabs, control characters, astral", () => {
    const pairs: [string, string][] = [
      ["waf-zürich.tf", "waf-zz.tf"],
      ["waf-äl.tf", "waf-zz.tf"],
      ["a\tb", "a b"],
      ["a\u0000b", "ab"],
      ["a\u007fb", "ab"],
      ["😀", "a"],
      ["résumé", "resume"],
      ["Ωmega", "omega"],
    ];
    for (const [a, b] of pairs) {
      expect(sign(compareText(a, b)), `${a} ${b}`).toBe(sign(COLLATOR.compare(a, b)));
      expect(sign(compareText(b, a)), `${b} ${a}`).toBe(sign(COLLATOR.compare(b, a)));
    }
  });

  it("names of a report sort as before (addresses, files, zone ids)", () => {
    const names = [
      'module.edge["shop_0_2"].module.waf.cloudflare_ruleset.rs_6',
      'module.edge["search_0_1"].module.waf.cloudflare_ruleset.rs_6',
      "module.edge[\"Search\"].cloudflare_waf_group.a[0]",
      "cloudflare_waf_rule.b",
      "cloudflare_waf_rule.B",
      "cloudflare_waf_rule_b",
      "stacks/stack-0000/waf-3.tf",
      "stacks/stack-0000/waf_3.tf",
      "stacks/stack-0000/Waf-3.tf",
      "0da42c8d2132a9ddaf714f9e7c920711",
      "0DA42C8D2132A9DDAF714F9E7C920711",
      "",
    ];
    expect([...names].sort(compareText)).toEqual([...names].sort((a, b) => COLLATOR.compare(a, b)));
  });
});
