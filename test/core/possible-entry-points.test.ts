// A cloudflare_ruleset whose phase or zone is not known offline may already be the entry point of a zone the
// run migrates: VALUE_UNRESOLVED at its zone (phase unknown) or once for the run (zone unknown), never absent.
import { describe, expect, it } from "vitest";
import { analyze, type DomainInventory } from "../../src/core/analyze.js";
import type { ExistingRuleset, LegacyWafPackage, ResourceRef, UnresolvedSetting } from "../../src/core/model.js";
import { unknownZoneEntryPointFindings } from "../../src/core/possible-entry-points.js";

const Z = "7d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a";
const ref = (address: string, type: string, zoneId: string | null = Z): ResourceRef => ({ address, configAddress: address, type, file: "main.tf", line: 35, zoneId, inConfig: true, inState: false });
const u = (attribute: string, expression: string): UnresolvedSetting => ({ attribute, expression, reason: "var.rulesets has no value offline" });
const pkg: LegacyWafPackage = { ref: ref("cloudflare_waf_package.owasp", "cloudflare_waf_package"), packageId: "a25a9a7e9c00afc1fb2e0245519d725b", sensitivity: "high", actionMode: "challenge", kind: "owasp" };
const ruleset = (over: Partial<ExistingRuleset>): ExistingRuleset => ({ ref: ref("cloudflare_ruleset.zone", "cloudflare_ruleset"), kind: "zone", phase: null, name: null, rules: [], ...over });
const inventory = (rulesets: ExistingRuleset[]): DomainInventory => ({ packages: [pkg], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], rulesets, zones: [], legacyDataSources: [] });
const unresolvedOf = (inv: DomainInventory) => analyze(inv).findings.filter((f) => f.code === "VALUE_UNRESOLVED");

describe("a ruleset whose phase is not known, in a zone the run migrates", () => {
  it("is VALUE_UNRESOLVED (warning) at its zone, and the zone lists it among what is not known", () => {
    const inv = inventory([ruleset({ unresolved: [u("phase", "each.value.phase")] })]);
    const found = unresolvedOf(inv);
    expect(found.map((f) => [f.address, f.zoneId, f.severity, f.details?.attribute])).toEqual([["cloudflare_ruleset.zone", Z, "warning", "phase"]]);
    expect(found[0]!.message).toContain("so whether it already manages this zone's http_request_firewall_managed entry point is not known");
    expect(analyze(inv).zones[0]!.zone.unresolved?.map((x) => x.attribute)).toEqual(["phase"]);
  });

  it("a known phase (managed or another) or an account-level ruleset is not a possible entry point", () => {
    expect(unresolvedOf(inventory([ruleset({ phase: "http_request_firewall_custom" })]))).toEqual([]);
    expect(unresolvedOf(inventory([ruleset({ kind: "root", unresolved: [u("phase", "each.value.phase")] })]))).toEqual([]);
    expect(analyze(inventory([ruleset({ phase: "http_request_firewall_managed" })])).findings.map((f) => f.code)).toContain("MANAGED_RULESET_EXISTS");
  });
});

describe("a ruleset whose zone is not known", () => {
  const unknownZone = (over: Partial<ExistingRuleset> = {}) =>
    ruleset({ ref: ref("module.rulesets.cloudflare_ruleset.managed", "cloudflare_ruleset", "var.zone_id"), phase: "http_request_firewall_managed", unresolved: [u("zone_id", "var.zone_id")], ...over });

  it("in the managed phase, or a phase not known either: one finding for the run, naming the zones it may serve", () => {
    const found = unresolvedOf(inventory([unknownZone()]));
    expect(found.map((f) => [f.address, f.zoneId, f.severity, f.details?.possibleEntryPoint])).toEqual([["module.rulesets.cloudflare_ruleset.managed", null, "warning", true]]);
    expect(found[0]!.message).toContain(`whether it is the http_request_firewall_managed entry point of a zone this run migrates (${Z}) is not known`);
    const both = unknownZoneEntryPointFindings([unknownZone({ phase: null, unresolved: [u("zone_id", "var.zone_id"), u("phase", "var.phase")] })], [Z]);
    expect(both[0]!.message).toContain("nor is its phase (phase = var.phase)");
  });

  it("nothing when the run migrates no zone, or the ruleset is in another phase", () => {
    expect(unknownZoneEntryPointFindings([unknownZone()], [])).toEqual([]);
    expect(unknownZoneEntryPointFindings([unknownZone({ phase: "http_ratelimit" })], [Z])).toEqual([]);
  });

  it("many zones are named up to five, then counted", () => {
    const zones = Array.from({ length: 7 }, (_, i) => `${i}`.repeat(32));
    expect(unknownZoneEntryPointFindings([unknownZone()], zones)[0]!.message).toContain(`${zones.slice(0, 5).join(", ")} and 2 more`);
  });
});
