// The settings the migration touches besides the legacy WAF resources (issue 12 §5): the zone's previous-WAF
// switch, firewall rules bypassing several products, duplicate entry points, and the small rules around
// them (messages without "?", readable resource names).
import { describe, expect, it } from "vitest";
import { analyze, type DomainInventory } from "../../src/core/analyze.js";
import { otherBypassedProducts } from "../../src/core/bypass-products.js";
import { duplicateEntryPointFindings } from "../../src/core/entry-point.js";
import type { ExistingRuleset, FirewallRule, LegacyWafGroup, LegacyWafPackage, ResourceRef, ZoneResource, ZoneWafSetting } from "../../src/core/model.js";
import { rulesetResourceName } from "../../src/core/naming.js";
import { applyZoneWafSwitch, zoneWafSwitch } from "../../src/core/zone-waf.js";
import { buildRuleset } from "../../src/core/ruleset-builder.js";

const Z1 = "0da42c8d2132a9ddaf714f9e7c920711";
const Z2 = "9a7806061c88ada191ed06f989cc3dac";

const ref = (address: string, zoneId: string | null = Z1, extra: Partial<ResourceRef> = {}): ResourceRef => ({
  address,
  configAddress: address.replace(/\[[^\]]*\]/g, ""),
  type: address.split(".").find((p) => p.startsWith("cloudflare_"))!.replace(/\[.*$/, ""),
  file: "main.tf",
  line: 10,
  zoneId,
  inConfig: true,
  inState: true,
  ...extra,
});
const empty = (): DomainInventory => ({ packages: [], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], rulesets: [], zones: [], legacyDataSources: [], zoneWafSettings: [] });
const pkg = (zoneId = Z1): LegacyWafPackage => ({ ref: ref("cloudflare_waf_package.owasp", zoneId), packageId: "a25a9a7e9c00afc1fb2e0245519d725b", sensitivity: "medium", actionMode: "block", kind: "owasp" });
const wafSetting = (value: string | null, zoneId = Z1, expression: string | null = null): ZoneWafSetting => ({
  ref: ref("cloudflare_zone_settings_override.z", zoneId, { line: 22 }),
  value,
  expression,
});
const fw = (address: string, products: string[], zoneId = Z1): FirewallRule => ({
  ref: ref(address, zoneId),
  action: "bypass",
  products,
  expression: "(ip.src eq 198.51.100.7)",
  filterAddress: null,
  description: null,
  paused: false,
  priority: 1,
});
const managedRuleset = (address: string, zoneId: string | null, extra: Partial<ExistingRuleset> = {}, refExtra: Partial<ResourceRef> = {}): ExistingRuleset => ({
  ref: ref(address, zoneId, refExtra),
  kind: "zone",
  phase: "http_request_firewall_managed",
  name: "default",
  rules: [{ action: "execute", expression: "true", description: null }],
  ...extra,
});
const executeRules = (r: ReturnType<typeof analyze>, zoneId: string) => r.zones.find((z) => z.zone.zoneId === zoneId)!.zone.ruleset.rules.filter((x) => x.action === "execute");

describe("zone WAF switch (zone settings waf = off | on)", () => {
  it("off: every execute rule is generated disabled, skip rules untouched, with a ZONE_WAF_SETTING warning that says what to do", () => {
    const inv = empty();
    inv.packages.push(pkg());
    inv.firewallRules.push(fw("cloudflare_firewall_rule.office", ["waf"]));
    inv.zoneWafSettings!.push(wafSetting("off"));
    const r = analyze(inv);
    const rules = r.zones[0]!.zone.ruleset.rules;
    expect(rules.filter((x) => x.action === "execute").map((x) => x.enabled)).toEqual([false, false]);
    expect(rules.filter((x) => x.action === "skip").map((x) => x.enabled)).toEqual([true]);
    const f = r.findings.filter((x) => x.code === "ZONE_WAF_SETTING");
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: "warning", address: "cloudflare_zone_settings_override.z", line: 22, zoneId: Z1 });
    expect(f[0]!.message).toMatch(/enabled = false/);
    expect(f[0]!.message).toMatch(/Enable the rules when the zone should be protected/);
    // Step 0 sends the service's configuration as it is: the finding says how to keep the zone as it was.
    expect(f[0]!.message).toContain(`cf-waf-migrate api config --zone ${Z1}`);
    expect(f[0]!.message).toMatch(/--config-json with its execute rules disabled/);
    // The note lands in ruleset.tf as a TODO next to the rules.
    expect(r.zones[0]!.rulesetNotes.join("\n")).toMatch(/previous WAF is off .*enabled = true when the zone should be protected/);
  });

  it("on: the ruleset is exactly the one without any setting, and no finding", () => {
    const base = empty();
    base.packages.push(pkg());
    const withOn = { ...base, zoneWafSettings: [wafSetting("on")] };
    const a = analyze(base);
    const b = analyze(withOn);
    expect(b.zones[0]!.zone.ruleset).toEqual(a.zones[0]!.zone.ruleset);
    expect(executeRules(b, Z1).every((x) => x.enabled)).toBe(true);
    expect(b.findings.map((x) => x.code)).not.toContain("ZONE_WAF_SETTING");
  });

  it("an expression is never assumed: rules stay as generated, and a warning names the expression", () => {
    const inv = empty();
    inv.packages.push(pkg());
    inv.zoneWafSettings!.push(wafSetting(null, Z1, 'lookup(var.zone_settings, "waf", null)'));
    const r = analyze(inv);
    expect(executeRules(r, Z1).every((x) => x.enabled)).toBe(true);
    const f = r.findings.find((x) => x.code === "ZONE_WAF_SETTING")!;
    expect(f.severity).toBe("warning");
    expect(f.message).toContain('lookup(var.zone_settings, "waf", null)');
    expect(f.details).toMatchObject({ value: null });
  });

  it("applies per zone: the switch of one zone does not disable another zone's rules; a zone outside the migration is not pulled in", () => {
    const inv = empty();
    inv.packages.push(pkg(Z1), pkg(Z2));
    const other = "11111111111111111111111111111111";
    inv.zoneWafSettings!.push(wafSetting("off", Z2), wafSetting("off", other));
    const r = analyze(inv);
    expect(executeRules(r, Z1).every((x) => x.enabled)).toBe(true);
    expect(executeRules(r, Z2).every((x) => !x.enabled)).toBe(true);
    expect(r.zones.map((z) => z.zone.zoneId)).toEqual([Z1, Z2]);
  });

  it("any off wins over on and over unknown (the narrower reading never turns protection on)", () => {
    expect(zoneWafSwitch([wafSetting("on"), wafSetting("off")]).state).toBe("off");
    expect(zoneWafSwitch([wafSetting(null, Z1, "var.waf"), wafSetting("off")]).state).toBe("off");
    expect(zoneWafSwitch([wafSetting("on"), wafSetting(null, Z1, "var.waf")]).state).toBe("unknown");
    expect(zoneWafSwitch([]).state).toBe("absent");
    const built = buildRuleset({ packages: [], firewallRules: [], pageRules: [] });
    expect(applyZoneWafSwitch(built.ruleset, { state: "absent" }).ruleset).toBe(built.ruleset);
  });

  it("--config-json keeps the service's ruleset as given, and the warning asks to check it", () => {
    const inv = empty();
    inv.packages.push(pkg());
    inv.zoneWafSettings!.push(wafSetting("off"));
    const service = { name: "default", rules: [{ action: "execute", expression: "true", description: "x", enabled: true, action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee" } }] };
    const r = analyze(inv, { configRulesets: { [Z1]: service } });
    expect(r.zones[0]!.zone.ruleset).toEqual(service);
    expect(r.findings.find((x) => x.code === "ZONE_WAF_SETTING")!.message).toMatch(/--config-json .*check that its execute rules are disabled/);
  });
});

describe("a bypass firewall rule with more products than the WAF", () => {
  it("gives one skip rule and an info naming the other products; a WAF-only bypass gives none", () => {
    const inv = empty();
    inv.firewallRules.push(fw("cloudflare_firewall_rule.office", ["waf", "uaBlock", "rateLimit"]), fw("cloudflare_firewall_rule.hooks", ["waf"]));
    const r = analyze(inv);
    const info = r.findings.filter((x) => x.code === "FIREWALL_RULE_BYPASS_OTHER_PRODUCTS");
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({ severity: "info", address: "cloudflare_firewall_rule.office", details: { otherProducts: ["uaBlock", "rateLimit"] } });
    expect(info[0]!.message).toMatch(/uaBlock, rateLimit.*firewall rule stays/);
    expect(r.zones[0]!.zone.ruleset.rules.filter((x) => x.action === "skip")).toHaveLength(2);
    // Never a state removal: the firewall rule is not a legacy WAF resource.
    expect(r.zones[0]!.zone.stateRemovals).toEqual([]);
  });

  it("only for rules that bypass the WAF at all", () => {
    expect(otherBypassedProducts(fw("cloudflare_firewall_rule.x", ["uaBlock", "rateLimit"]))).toEqual([]);
    expect(otherBypassedProducts({ ...fw("cloudflare_firewall_rule.x", ["waf", "hot"]), action: "block" })).toEqual([]);
    expect(otherBypassedProducts(fw("cloudflare_firewall_rule.x", ["waf", "hot", "hot"]))).toEqual(["hot"]);
  });
});

describe("two http_request_firewall_managed entry points for one zone", () => {
  it("is an error naming both, with their files and lines, whether or not legacy resources remain", () => {
    const inv = empty();
    inv.rulesets.push(managedRuleset("cloudflare_ruleset.managed_waf", Z1, {}, { file: "main.tf", line: 16 }), managedRuleset("cloudflare_ruleset.owasp", Z1, {}, { file: "owasp.tf", line: 2 }));
    const f = analyze(inv).findings.filter((x) => x.code === "DUPLICATE_ENTRY_POINT");
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: "error", zoneId: Z1, file: "main.tf", line: 16, details: { addresses: ["cloudflare_ruleset.managed_waf", "cloudflare_ruleset.owasp"] } });
    expect(f[0]!.message).toContain("cloudflare_ruleset.managed_waf (main.tf:16) and cloudflare_ruleset.owasp (owasp.tf:2)");
  });

  it("one per zone and phase: other phases, other zones and account-level rulesets are not duplicates", () => {
    const rulesets = [
      managedRuleset("cloudflare_ruleset.a", Z1),
      managedRuleset("cloudflare_ruleset.custom", Z1, { phase: "http_request_firewall_custom" }),
      managedRuleset("cloudflare_ruleset.b", Z2),
      managedRuleset("cloudflare_ruleset.account", null, { kind: "root" }),
      managedRuleset("cloudflare_ruleset.account2", null, { kind: "root" }),
    ];
    expect(duplicateEntryPointFindings(rulesets, [])).toEqual([]);
  });

  it("a zone named by id in state and by its resource in config is one zone", () => {
    const zones: ZoneResource[] = [{ ref: ref("cloudflare_zone.shop", Z1), id: Z1, name: "shop.example.com", plan: null }];
    const f = duplicateEntryPointFindings(
      [managedRuleset("cloudflare_ruleset.imported", Z1, {}, { inConfig: false, file: null, line: null }), managedRuleset("cloudflare_ruleset.written", "cloudflare_zone.shop.id", {}, { inState: false })],
      zones,
    );
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toContain("cloudflare_ruleset.imported (state only)");
  });

  it("the same unresolved expression is one zone within a module, not across modules", () => {
    const sameModule = [managedRuleset("module.a.cloudflare_ruleset.x", "var.zone_id"), managedRuleset("module.a.cloudflare_ruleset.y", "var.zone_id")];
    expect(duplicateEntryPointFindings(sameModule, [])).toHaveLength(1);
    const twoModules = [managedRuleset("module.a.cloudflare_ruleset.x", "var.zone_id"), managedRuleset("module.b.cloudflare_ruleset.x", "var.zone_id")];
    expect(duplicateEntryPointFindings(twoModules, [])).toEqual([]);
  });
});

describe("small ones", () => {
  it("a group or rule with an unknown id or mode says so instead of printing '?'", () => {
    const inv = empty();
    const g = (address: string, kind: LegacyWafGroup["kind"]): LegacyWafGroup => ({ ref: ref(address), groupId: null, packageId: null, mode: null, kind });
    inv.groups.push(g("cloudflare_waf_group.crs", "owasp"), g("cloudflare_waf_group.managed", "cloudflare"));
    inv.rules.push({ ref: ref("cloudflare_waf_rule.r"), ruleId: null, packageId: null, groupId: null, mode: null, kind: "unknown" });
    const messages = analyze(inv).findings.map((f) => f.message);
    for (const m of messages) expect(m).not.toMatch(/(^|\s|\()\?(\s|\)|:|$)/);
    const crs = messages.find((m) => m.startsWith("cloudflare_waf_group.crs"))!;
    expect(crs).toContain("group (id not known offline) (mode not known offline)");
    expect(messages.find((m) => m.startsWith("cloudflare_waf_rule.r sets"))!).toContain("rule (id not known offline) to a mode not known offline");
  });

  it("an OWASP group the reader classified stays a core rule set override even when the zone's packages do not name its package", () => {
    const inv = empty();
    inv.groups.push({ ref: ref("cloudflare_waf_group.owasp_bad_robots"), groupId: "b7b5d6a5e0b3d2f7a19b11f1aa1f8a7c", packageId: "c1b4c0f7e8d94c6f8a1e0a9b5d3c7e2f", mode: "off", kind: "owasp" });
    const codes = analyze(inv).findings.map((f) => f.code);
    expect(codes).toContain("CRS_OVERRIDE_NOT_MIGRATED");
    expect(codes).not.toContain("MANAGED_OVERRIDE_UNMAPPED");
  });

  it("ruleset names from unresolved expressions are readable identifiers, never a cut of the expression", () => {
    const ident = /^[a-z_][a-z0-9_-]*$/;
    const cases: [string, string][] = [
      ["${data.cloudflare_zone.main.id}", "waf_managed_main"],
      ["data.cloudflare_zones.main.zones[0].id", "waf_managed_main"],
      ['lookup(var.zones, "shop", null)', "waf_managed_shop"],
      ["each.value.zone_id", "waf_managed_zone_id"],
      ["module.dns.zone_id", "waf_managed_dns_zone_id"],
      ["var.zone_id", "waf_managed_zone_id"],
      ["cloudflare_zone.shop.id", "waf_managed_shop"],
      [Z1, "waf_managed_0da42c8d"],
    ];
    for (const [expr, name] of cases) {
      expect(rulesetResourceName(expr)).toBe(name);
      expect(rulesetResourceName(expr)).toMatch(ident);
      // Stable: the same expression, the same name.
      expect(rulesetResourceName(expr)).toBe(rulesetResourceName(expr));
    }
    expect(rulesetResourceName("${data.cloudflare_zone.cloudflare_zone_for_the_production_storefront_with_a_very_long_name.id}").length).toBeLessThanOrEqual("waf_managed_".length + 40);
    expect(rulesetResourceName("${data.cloudflare_zone.main.id}")).not.toMatch(/data_clo/);
  });
});

describe("phase 1 eligibility (information) reads the zone switch", () => {
  it("condition (a) holds when the previous WAF is off, whatever the core rule set package says", async () => {
    const { phase1Eligibility } = await import("../../src/core/compat.js");
    const input = { packages: [pkg()], firewallRules: [], pageRules: [], overrides: [] };
    expect(phase1Eligibility(input).eligible).toBe(false);
    expect(phase1Eligibility({ ...input, zoneWafSettings: [wafSetting("off")] })).toEqual({ eligible: true, reasons: [] });
    expect(phase1Eligibility({ ...input, zoneWafSettings: [wafSetting("on")] }).eligible).toBe(false);
  });
});
