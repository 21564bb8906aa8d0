import { describe, expect, it } from "vitest";
import {
  exceedsExpressionLimit,
  exceedsRuleLimit,
  isWafBypass,
  migrationModeFor,
  phase1Eligibility,
  phase2Compatible,
  validationAvailable,
} from "../../src/core/compat.js";
import { disabledParanoiaCategories, mapCoreRuleSet, normalizeZonePlan } from "../../src/core/mappings.js";
import type { FirewallRule, LegacyWafOverride, LegacyWafPackage, PageRule, ResourceRef } from "../../src/core/model.js";

const ref = (address: string): ResourceRef => ({ address, configAddress: address, type: address.split(".")[0]!, file: "main.tf", line: 1, zoneId: "z", inConfig: true, inState: true });

describe("core rule set mapping (spec table, row by row)", () => {
  it.each([
    ["high", 2, 40],
    ["medium", 1, 25],
    ["low", 1, 40],
    ["default", 2, 40],
  ] as const)("sensitivity %s → PL%d, threshold %d", (sens, pl, threshold) => {
    const m = mapCoreRuleSet(sens, "block");
    expect(m).toEqual({ enabled: true, paranoiaLevel: pl, scoreThreshold: threshold, action: "block" });
  });

  it("an unset sensitivity is the Default row", () => {
    expect(mapCoreRuleSet(null, "block")).toMatchObject({ paranoiaLevel: 2, scoreThreshold: 40 });
  });

  it.each([
    ["simulate", "log"],
    ["block", "block"],
    ["challenge", "challenge"],
    ["SIMULATE", "log"],
  ])("action %s → %s", (legacy, action) => {
    expect(mapCoreRuleSet("high", legacy).action).toBe(action);
  });

  it("sensitivity off keeps the rule but disabled", () => {
    expect(mapCoreRuleSet("off", "challenge")).toEqual({ enabled: false, paranoiaLevel: 2, scoreThreshold: 40, action: "challenge" });
  });

  it("rejects values outside the table", () => {
    expect(() => mapCoreRuleSet("extreme", "block")).toThrow(/sensitivity/);
    expect(() => mapCoreRuleSet("high", "js_challenge")).toThrow(/action/);
  });

  it("expresses paranoia levels by disabling the higher categories", () => {
    expect(disabledParanoiaCategories(1)).toEqual(["paranoia-level-2", "paranoia-level-3", "paranoia-level-4"]);
    expect(disabledParanoiaCategories(2)).toEqual(["paranoia-level-3", "paranoia-level-4"]);
    expect(disabledParanoiaCategories(4)).toEqual([]);
  });
});

describe("limits", () => {
  it("200 firewall rules is allowed, 201 is not", () => {
    expect(exceedsRuleLimit(200)).toBe(false);
    expect(exceedsRuleLimit(201)).toBe(true);
  });
  it("4096 bytes is allowed, 4097 is not (bytes, not characters)", () => {
    expect(exceedsExpressionLimit("a".repeat(4096))).toBe(false);
    expect(exceedsExpressionLimit("a".repeat(4097))).toBe(true);
    expect(exceedsExpressionLimit("é".repeat(2048))).toBe(false); // 4096 bytes
    expect(exceedsExpressionLimit("é".repeat(2048) + "a")).toBe(true);
  });
});

describe("compatibility and plan tiers", () => {
  const fw = (action: string, products: string[]): FirewallRule => ({ ref: ref("cloudflare_firewall_rule.f"), action, products, expression: "true", filterAddress: null, description: null, paused: false, priority: null });
  const page = (disableSecurity: boolean, waf: string | null): PageRule => ({ ref: ref("cloudflare_page_rule.p"), target: "example.com/*", disableSecurity, waf, status: "active", priority: 1 });
  const pkg = (sensitivity: string | null): LegacyWafPackage => ({ ref: ref("cloudflare_waf_package.p"), packageId: "x", sensitivity, actionMode: "block", kind: "owasp" });
  const override: LegacyWafOverride = { ref: ref("cloudflare_waf_override.o"), urls: ["example.com/x"], rules: {}, groups: {}, rewriteAction: {}, paused: false, description: null };

  it("bypass > WAF needs both the action and the product", () => {
    expect(isWafBypass(fw("bypass", ["waf"]))).toBe(true);
    expect(isWafBypass(fw("bypass", ["uaBlock"]))).toBe(false);
    expect(isWafBypass(fw("allow", ["waf"]))).toBe(false);
  });

  it("phase 2: only URI-based overrides make a zone incompatible", () => {
    expect(phase2Compatible([])).toBe(true);
    expect(phase2Compatible([override])).toBe(false);
  });

  it("phase 1: each condition on its own makes a zone ineligible", () => {
    const none = { packages: [], firewallRules: [], pageRules: [], overrides: [] };
    expect(phase1Eligibility(none)).toEqual({ eligible: true, reasons: [] });
    expect(phase1Eligibility({ ...none, packages: [pkg("off")] }).eligible).toBe(true);
    expect(phase1Eligibility({ ...none, packages: [pkg("low")] }).eligible).toBe(false);
    expect(phase1Eligibility({ ...none, packages: [pkg(null)] }).eligible).toBe(false); // provider default is high
    expect(phase1Eligibility({ ...none, firewallRules: [fw("bypass", ["waf"])] }).eligible).toBe(false);
    expect(phase1Eligibility({ ...none, pageRules: [page(true, null)] }).eligible).toBe(false);
    expect(phase1Eligibility({ ...none, pageRules: [page(false, "on")] }).eligible).toBe(false);
    expect(phase1Eligibility({ ...none, pageRules: [page(false, "off")] }).eligible).toBe(false);
    expect(phase1Eligibility({ ...none, overrides: [override] }).eligible).toBe(false);
  });

  it.each([
    ["enterprise", "validation", true],
    ["business", "pending", false],
    ["pro", "pending", false],
    ["free", "pending", false],
    ["unknown", "pending", false],
  ] as const)("%s zones: mode %s", (plan, mode, validation) => {
    expect(migrationModeFor(plan)).toBe(mode);
    expect(validationAvailable(plan)).toBe(validation);
  });

  it.each([
    ["enterprise", "enterprise"],
    ["Enterprise Website", "enterprise"],
    ["business", "business"],
    ["pro", "pro"],
    ["Free Website", "free"],
    ["partners_ent", "unknown"],
    [42, "unknown"],
  ])("normalizes the zone plan %s", (value, plan) => {
    expect(normalizeZonePlan(value)).toBe(plan);
  });
});
