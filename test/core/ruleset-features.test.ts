// The provider feature table (data read from the provider's source) against the generator's version rules,
// and the constructs the emitter really writes against what core says it writes.
import { parse } from "@cdktn/hcl2json";
import { describe, expect, it } from "vitest";
import {
  admittedReleases,
  constructsOf,
  constructStateAt,
  fitRuleset,
  GENERATOR_CONSTRUCTS,
  hasConstruct,
  missingConstructs,
  RULESET_FEATURES,
  tableMinimumVersion,
} from "../../src/core/ruleset-features.js";
import type { Ruleset } from "../../src/core/model.js";
import { emitRulesetHcl } from "../../src/terraform/hcl/emit.js";
import { hclConstructs } from "./hcl-constructs.js";

/** Everything the generator can put in a ruleset at once. */
const EVERYTHING: Ruleset = {
  name: "default",
  rules: [
    { ref: "skip1", action: "skip", expression: "true", description: "s", enabled: true, action_parameters: { ruleset: "current" }, logging: { enabled: true } },
    {
      action: "execute",
      expression: "true",
      description: "e",
      enabled: true,
      action_parameters: {
        id: "4814384a9e5d4991b9815dcfc25d2f1f",
        overrides: {
          action: "log",
          enabled: true,
          categories: [{ category: "paranoia-level-2", action: "log", enabled: false }],
          rules: [{ id: "6179ae15870a4bb7b2d480d4843b323c", action: "block", enabled: true, score_threshold: 40 }],
        },
      },
    },
  ],
};

describe("the feature table and the generator's version rules", () => {
  it("agree on the minimum version of every construct the generator can emit", () => {
    for (const [construct, rule] of Object.entries(GENERATOR_CONSTRUCTS)) {
      expect(RULESET_FEATURES.constructs[construct], construct).toBeDefined();
      expect(tableMinimumVersion(construct), construct).toBe(rule.minimum);
    }
  });

  it("the minimum is the first version with the construct and the tag before it lacks it", () => {
    for (const construct of Object.keys(GENERATOR_CONSTRUCTS)) {
      const c = RULESET_FEATURES.constructs[construct]!;
      expect(hasConstruct(construct, tableMinimumVersion(construct)!), construct).toBe(true);
      if (c.lastTagWithout) expect(hasConstruct(construct, c.lastTagWithout), construct).toBe(false);
      // Every legacy-era version from the minimum on (3.x: what steps 1-6 run on) keeps it.
      for (const v of admittedReleases([`>= ${tableMinimumVersion(construct)}`, "<= 3.35.0"])) expect(hasConstruct(construct, v), `${construct} at ${v}`).toBe(true);
    }
  });

  it("covers every construct the emitter writes, and core names exactly what the emitter writes", async () => {
    const used = constructsOf(EVERYTHING);
    for (const c of used) expect(GENERATOR_CONSTRUCTS[c], c).toBeDefined();
    const hcl = await emitRulesetHcl({ resourceName: "r", zoneIdExpression: '"0da42c8d2132a9ddaf714f9e7c920711"', ruleset: EVERYTHING, providerMajor: 4 });
    expect(hclConstructs(await parse("r.tf", hcl)).sort()).toEqual(used);
  });

  it("was read from the provider's tags, 2.26.0 to the latest 5.x", () => {
    const tags = RULESET_FEATURES.tagsRead;
    expect(tags[0]).toBe("v2.26.0");
    for (const t of ["v3.4.0", "v3.13.0", "v3.35.0", "v4.0.0", "v4.52.8", "v5.0.0"]) expect(tags).toContain(t);
    expect(tags.at(-1)!.startsWith("v5.")).toBe(true);
    expect(RULESET_FEATURES.source).toBe("https://github.com/cloudflare/terraform-provider-cloudflare");
  });

  it("knows the source's facts that the migration depends on", () => {
    expect(constructStateAt("import", "3.28.0")).toBe("absent");
    expect(constructStateAt("import", "3.29.0")).toBe("supported");
    expect(constructStateAt("rules.logging", "3.12.2")).toBe("absent");
    expect(constructStateAt("rules.logging", "3.13.0")).toBe("block");
    expect(constructStateAt("rules.logging", "5.0.0")).toBe("attribute");
    expect(constructStateAt("rules.ref", "3.35.0")).toBe("computed"); // settable only from 4.2.0
    expect(constructStateAt("rules.action_parameters.phases", "3.7.0")).toBe("absent");
    expect(constructStateAt("rules.action_parameters.overrides", "2.26.0")).toBe("block");
    expect(constructStateAt("rules", "2.25.0")).toBe("absent"); // before the resource existed
  });
});

describe("missingConstructs / fitRuleset", () => {
  it("names what a version or constraint lacks, with the minimum and the first admitted version lacking it", () => {
    const m = missingConstructs(EVERYTHING, "~> 3.4.0");
    expect(m.map((x) => [x.construct, x.minimum, x.missingAt])).toEqual([
      ["import", "3.29.0", "3.4.0"],
      ["rules.logging", "3.13.0", "3.4.0"],
      ["rules.ref", "4.2.0", "3.4.0"],
    ]);
    expect(missingConstructs(EVERYTHING, "3.2.0").map((x) => x.construct)).toContain("rules.action_parameters.overrides.action");
    expect(missingConstructs(EVERYTHING, ["~> 3.35"]).map((x) => x.construct)).toEqual(["rules.ref"]);
    expect(missingConstructs(EVERYTHING, "4.52.8")).toEqual([]);
  });

  it("leaves out optional constructs and reports required ones", () => {
    const fit = fitRuleset(EVERYTHING, ">= 3.13, < 4");
    expect(fit.ruleset.rules[0]!.logging).toEqual({ enabled: true });
    expect(fit.ruleset.rules[0]!.ref).toBeUndefined();
    expect(fit.missing.map((m) => m.construct)).toEqual(["import"]);
    const old = fitRuleset(EVERYTHING, "~> 3.12");
    expect(old.ruleset.rules[0]!.logging).toBeUndefined();
    expect(old.omitted.map((m) => m.construct).sort()).toEqual(["rules.logging", "rules.ref"]);
  });

  it("keeps every rule, its order and a disabled rule, so the TODOs placed by rule index stay on their rule", async () => {
    // A possible bypass (settings unknown offline) is a disabled skip rule with TODOs inside it, by index.
    const withUnknown: Ruleset = {
      ...EVERYTHING,
      rules: [{ ...EVERYTHING.rules[0]!, enabled: false, description: "Possible bypass of the WAF (settings unknown offline)" }, ...EVERYTHING.rules.slice(1)],
    };
    const fit = fitRuleset(withUnknown, "~> 3.12");
    expect(fit.ruleset.rules.map((r) => [r.description, r.enabled])).toEqual(withUnknown.rules.map((r) => [r.description, r.enabled]));
    const hcl = await emitRulesetHcl({
      resourceName: "waf",
      zoneIdExpression: '"0da42c8d2132a9ddaf714f9e7c920711"',
      ruleset: fit.ruleset,
      providerMajor: 4,
      headerComments: ["Left out: logging on a skip rule"],
      ruleTodos: { 0: ["VALUE_UNRESOLVED cloudflare_firewall_rule.fw: action = var.action is not known offline"] },
    });
    const firstRule = hcl.slice(hcl.indexOf("rules {"), hcl.indexOf("rules {", hcl.indexOf("rules {") + 1));
    expect(firstRule).toContain("# TODO: VALUE_UNRESOLVED cloudflare_firewall_rule.fw");
    expect(firstRule).toMatch(/enabled\s+= false/);
    expect(firstRule).not.toContain("logging");
    expect(hcl.startsWith("# Left out: logging on a skip rule")).toBe(true);
  });

  it("refuses a malformed constraint rather than guessing", () => {
    expect(() => missingConstructs(EVERYTHING, "~> v3")).toThrow(/invalid version constraint/);
  });
});
