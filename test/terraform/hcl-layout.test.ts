// The emitter lays its rulesets out itself (src/terraform/hcl/layout.ts) instead of calling hcl-tools
// format(): these tests hold it to format()'s exact bytes, on random rulesets of both provider syntaxes,
// and check that what it does not know goes back to format() rather than out different.
import { format } from "@cdktn/hcl-tools";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Ruleset, RulesetRule } from "../../src/core/model.js";
import { emitRulesetHcl, rulesetHclLines, type EmitRulesetOptions } from "../../src/terraform/hcl/emit.js";
import { layoutHclLines } from "../../src/terraform/hcl/layout.js";

const viaFormat = (lines: string[]) => format(lines.join("\n") + "\n");

// Text the way it arrives from state, config and the service: printable most of the time, anything now and then.
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom("${var.x}", "%{ if x }", "$${kept}", 'a "quoted" \\ path', "tab\there", "r\"^/a\\d+$\"") },
);
const id = fc.stringMatching(/^[0-9a-f]{32}$/);

const ruleArb: fc.Arbitrary<RulesetRule> = fc.record(
  {
    ref: text,
    action: fc.constantFrom("execute", "skip", "log"),
    expression: text,
    description: text,
    enabled: fc.boolean(),
    action_parameters: fc.record(
      {
        id,
        ruleset: fc.constant("current"),
        overrides: fc.record(
          {
            action: fc.constantFrom("log", "block"),
            enabled: fc.boolean(),
            categories: fc.array(fc.record({ category: text, action: fc.constantFrom("log", "block"), enabled: fc.boolean() }, { requiredKeys: ["category"] }), { maxLength: 3 }),
            rules: fc.array(
              fc.record(
                { id, action: fc.constantFrom("log", "block", "managed_challenge"), enabled: fc.boolean(), score_threshold: fc.oneof(fc.nat(100), fc.double({ noNaN: true, noDefaultInfinity: true })) },
                { requiredKeys: ["id"] },
              ),
              { maxLength: 3 },
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    logging: fc.record({ enabled: fc.boolean() }),
  },
  { requiredKeys: ["action", "expression", "description", "enabled"] },
);

const rulesetArb: fc.Arbitrary<Ruleset> = fc.record(
  { name: text, description: text, rules: fc.array(ruleArb, { maxLength: 4 }) },
  { requiredKeys: ["name", "rules"] },
);

const optionsArb: fc.Arbitrary<EmitRulesetOptions> = fc.record({
  resourceName: fc.stringMatching(/^[a-z_][a-z0-9_-]{0,20}$/),
  zoneIdExpression: fc.oneof(
    fc.constant("cloudflare_zone.shop.id"),
    fc.constant("cloudflare_zone.my-zone.id"),
    id.map((z) => JSON.stringify(z)),
    fc.constant('"<ZONE_ID>"'),
    fc.constant('lookup(local.zones, "shop")'),
    fc.constant('"${var.zone_id}"'),
  ),
  ruleset: rulesetArb,
  providerMajor: fc.constantFrom(4 as const, 5 as const),
  todoComments: fc.array(text, { maxLength: 4 }),
});

describe("layoutHclLines", () => {
  it("lays out every ruleset exactly as format() does, or leaves it to format()", async () => {
    let laidOut = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(optionsArb, async (opts) => {
        let lines: string[];
        try {
          lines = rulesetHclLines(opts);
        } catch {
          return; // refused input (a non-finite score_threshold): nothing to lay out
        }
        runs++;
        const mine = layoutHclLines(lines);
        if (mine === null) return;
        laidOut++;
        expect(mine).toBe(await viaFormat(lines));
      }),
      { numRuns: 400, seed: 18_4 },
    );
    // The generator leans to the unusual (templates, control characters, expressions), so many go to
    // format(); enough must be laid out here for the comparison to mean something.
    expect(laidOut).toBeGreaterThan(runs * 0.2);
  });

  it("takes the usual shapes itself: TODO comments, both syntaxes, a zone reference or a literal id", async () => {
    for (const providerMajor of [4, 5] as const) {
      for (const zoneIdExpression of ["cloudflare_zone.shop.id", '"0da42c8d2132a9ddaf714f9e7c920711"']) {
        const lines = rulesetHclLines({
          resourceName: "waf_shop",
          zoneIdExpression,
          providerMajor,
          todoComments: ["MANAGED_OVERRIDE_UNMAPPED: cloudflare_waf_rule.r[\"100015\"] sets managed rule 100015 to mode block", "two\nlines"],
          ruleset: {
            name: "default",
            rules: [
              { action: "skip", expression: 'http.host eq "a"', description: "", enabled: true, action_parameters: { ruleset: "current" }, logging: { enabled: true } },
              {
                action: "execute",
                expression: "true",
                description: "OWASP",
                enabled: true,
                action_parameters: { id: "4814384a9e5d4991b9815dcfc25d2f1f", overrides: { categories: [{ category: "paranoia-level-3", enabled: false }], rules: [{ id: "6179ae15870a4bb7b2d480d4843b323c", action: "log", score_threshold: 40 }] } },
              },
            ],
          },
        });
        const mine = layoutHclLines(lines);
        expect(mine).not.toBeNull();
        expect(mine).toBe(await viaFormat(lines));
      }
    }
  });

  it("gives null for what it does not know (format() decides those)", () => {
    expect(layoutHclLines(["resource \"x\" \"y\" {", "a = lookup(local.z, \"k\")", "}"])).toBeNull();
    expect(layoutHclLines(["resource \"x\" \"y\" {", "a = \"${var.x}\"", "}"])).toBeNull();
    expect(layoutHclLines(["resource \"x\" \"y\" {", "a = -1", "}"])).toBeNull();
    expect(layoutHclLines(["resource \"x\" \"y\" {", "# inside", "}"])).toBeNull();
    expect(layoutHclLines(["# a\u0001control", "x {", "}"])).toBeNull();
    expect(layoutHclLines(["x {"])).toBeNull();
    expect(layoutHclLines(["}"])).toBeNull();
  });

  it("the emitter's text does not depend on which path laid it out", async () => {
    // A zone expression the layout does not take: the emitter falls back to format(), same bytes as before.
    const opts: EmitRulesetOptions = { resourceName: "waf", zoneIdExpression: 'lookup(local.zones,  "shop")', providerMajor: 4, ruleset: { name: "default", rules: [] } };
    expect(layoutHclLines(rulesetHclLines(opts))).toBeNull();
    expect(await emitRulesetHcl(opts)).toBe(await viaFormat(rulesetHclLines(opts)));
  });
});
