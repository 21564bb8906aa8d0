import { describe, expect, it } from "vitest";
import { analyze, type DomainInventory } from "../../src/core/analyze.js";
import { OWASP_ANOMALY_SCORE_RULE_ID, OWASP_CORE_RULESET_ID, CLOUDFLARE_MANAGED_RULESET_ID } from "../../src/core/mappings.js";
import type { FirewallRule, LegacyWafPackage, LegacyWafRule, PageRule, ResourceRef, ZoneResource } from "../../src/core/model.js";
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
const empty = (): DomainInventory => ({ packages: [], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], rulesets: [], zones: [], legacyDataSources: [] });
const pkg = (address: string, sensitivity: string | null, actionMode: string | null, zoneId = Z1): LegacyWafPackage => ({ ref: ref(address, zoneId), packageId: "a25a9a7e9c00afc1fb2e0245519d725b", sensitivity, actionMode, kind: "owasp" });
const fw = (i: number, expression: string | null = `(ip.src eq 192.0.2.${i % 250})`, zoneId = Z1): FirewallRule => ({ ref: ref(`cloudflare_firewall_rule.r[${i}]`, zoneId), action: "bypass", products: ["waf"], expression, filterAddress: null, description: null, paused: false, priority: i });
const page = (target: string, disableSecurity: boolean, waf: string | null, zoneId = Z1): PageRule => ({ ref: ref(`cloudflare_page_rule.p_${target.length}`, zoneId), target, disableSecurity, waf, status: "active", priority: 1 });
const rule = (address: string, ruleId: string, mode: string, kind: LegacyWafRule["kind"] = "cloudflare"): LegacyWafRule => ({ ref: ref(address), ruleId, packageId: null, groupId: null, mode, kind });
const zone = (id: string, plan: ZoneResource["plan"], name: string): ZoneResource => ({ ref: ref(`cloudflare_zone.${name.split(".")[0]}`, id), id, name, plan });
const codes = (r: ReturnType<typeof analyze>) => r.findings.map((f) => f.code);

describe("analyze: zones, findings, ruleset", () => {
  it("groups by zone and joins the zone's plan; Enterprise validates, others are pending", () => {
    const inv = empty();
    inv.packages.push(pkg("cloudflare_waf_package.a", "high", "block", Z1), pkg("cloudflare_waf_package.b", "low", "block", Z2));
    inv.zones.push(zone(Z1, "enterprise", "shop.example.com"), zone(Z2, "pro", "blog.example.org"));
    const r = analyze(inv);
    expect(r.zones.map((z) => [z.zone.zoneId, z.zone.plan, z.zone.migrationMode])).toEqual([
      [Z1, "enterprise", "validation"],
      [Z2, "pro", "pending"],
    ]);
    expect(r.findings.filter((f) => f.code === "VALIDATION_MODE_UNAVAILABLE").map((f) => f.zoneId)).toEqual([Z2]);
  });

  it("--zone-plan wins over the zone resource", () => {
    const inv = empty();
    inv.packages.push(pkg("cloudflare_waf_package.a", "high", "block"));
    inv.zones.push(zone(Z1, "pro", "shop.example.com"));
    expect(analyze(inv, { zonePlans: { [Z1]: "enterprise" } }).zones[0]!.zone.plan).toBe("enterprise");
  });

  it("200 bypass rules are fine, 201 are over the limit", () => {
    const at = (n: number) => {
      const inv = empty();
      for (let i = 0; i < n; i++) inv.firewallRules.push(fw(i));
      return codes(analyze(inv));
    };
    expect(at(200)).not.toContain("FIREWALL_RULES_OVER_LIMIT");
    expect(at(201)).toContain("FIREWALL_RULES_OVER_LIMIT");
  });

  it("an expression of 4096 bytes is fine, 4097 is too long", () => {
    const inv = empty();
    inv.firewallRules.push(fw(1, "a".repeat(4096)), fw(2, "b".repeat(4097)));
    const too = analyze(inv).findings.filter((f) => f.code === "FIREWALL_EXPRESSION_TOO_LONG");
    expect(too.map((f) => f.address)).toEqual(["cloudflare_firewall_rule.r[2]"]);
  });

  it("a URI override makes the zone incompatible and is never a state removal", () => {
    const inv = empty();
    inv.overrides.push({ ref: ref("cloudflare_waf_override.o"), urls: ["example.com/x/*"], rules: { "100015": "disable" }, groups: {}, rewriteAction: {}, paused: false, description: null });
    const r = analyze(inv);
    expect(r.zones[0]!.zone.compatible).toBe(false);
    expect(r.zones[0]!.zone.stateRemovals).toEqual([]);
    expect(codes(r)).toContain("URI_WAF_OVERRIDE");
  });

  it("drift: in state only, in config only; a count/for_each resource with no instances is not drift", () => {
    const inv = empty();
    inv.packages.push({ ...pkg("cloudflare_waf_package.gone", "high", "block"), ref: ref("cloudflare_waf_package.gone", Z1, { inConfig: false, file: null, line: null }) });
    inv.rules.push({ ...rule("cloudflare_waf_rule.new", "100015", "block"), ref: ref("cloudflare_waf_rule.new", Z1, { inState: false }) });
    inv.rules.push({ ...rule("cloudflare_waf_rule.flagged", "100016", "block"), ref: ref("cloudflare_waf_rule.flagged", Z1, { inState: false, mayHaveNoInstances: true }) });
    const drift = analyze(inv, { stateKnown: true }).findings.filter((f) => f.code === "STATE_CONFIG_DRIFT").map((f) => f.address);
    expect(drift.sort()).toEqual(["cloudflare_waf_package.gone", "cloudflare_waf_rule.new"]);
    // Without state there is nothing to drift from.
    expect(codes(analyze(inv, { stateKnown: false }))).not.toContain("STATE_CONFIG_DRIFT");
    // A state-only resource's finding points at the zone's first block.
    const gone = analyze(inv, { stateKnown: true }).findings.find((f) => f.address === "cloudflare_waf_package.gone")!;
    expect([gone.file, gone.line]).toEqual(["main.tf", 10]);
  });

  it("core rule set rule overrides are not migrated; managed modes are unmapped unless --config-json", () => {
    const inv = empty();
    inv.rules.push(rule("cloudflare_waf_rule.owasp", "URI-958000", "off", "owasp"), rule("cloudflare_waf_rule.managed", "100015", "block", "cloudflare"));
    expect(codes(analyze(inv)).sort()).toEqual(expect.arrayContaining(["CRS_OVERRIDE_NOT_MIGRATED", "MANAGED_OVERRIDE_UNMAPPED"]));
    const service = { name: "default", rules: [{ action: "execute", expression: "true", description: "", enabled: true, action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID } }] };
    const exact = analyze(inv, { configRulesets: { [Z1]: service } });
    expect(codes(exact)).not.toContain("MANAGED_OVERRIDE_UNMAPPED");
    expect(codes(exact)).toContain("CRS_OVERRIDE_NOT_MIGRATED");
    expect(exact.zones[0]!.zone.ruleset).toBe(service);
  });

  it("import id: provider 4 zone/, provider 5 zones/, placeholder and finding when the ruleset id is unknown", () => {
    const inv = empty();
    inv.packages.push(pkg("cloudflare_waf_package.a", "high", "block"));
    const four = analyze(inv);
    expect(four.zones[0]!.zone.imports).toEqual([{ to: "cloudflare_ruleset.waf_managed_0da42c8d", id: `zone/${Z1}/<RULESET_ID>` }]);
    expect(codes(four)).toContain("RULESET_ID_UNKNOWN");
    const five = analyze(inv, { providerMajor: 5, rulesetIds: { [Z1]: "2c0fc9fa937b4d3fb7a4ec1e3f9f8e21" } });
    expect(five.zones[0]!.zone.imports[0]!.id).toBe(`zones/${Z1}/2c0fc9fa937b4d3fb7a4ec1e3f9f8e21`);
    expect(codes(five)).not.toContain("RULESET_ID_UNKNOWN");
  });

  it("a hand-migrated managed-phase ruleset with a bypass rule is reported even when no legacy resource remains", () => {
    const inv = empty();
    inv.rulesets.push({
      ref: ref("cloudflare_ruleset.managed", Z2),
      kind: "zone",
      phase: "http_request_firewall_managed",
      name: "default",
      rules: [{ action: "bypass", expression: "true", description: null }, { action: "execute", expression: "true", description: null }],
    });
    const r = analyze(inv);
    expect(r.zones).toEqual([]);
    expect(r.findings.map((f) => [f.code, f.address])).toEqual([["RULESET_INVALID_ACTION", "cloudflare_ruleset.managed"]]);
  });

  it("old resources that name the zone by its domain join the zone resource with that name", () => {
    const inv = empty();
    inv.packages.push(pkg("cloudflare_waf_package.old", "high", "block", "shop.example.com"));
    inv.zones.push(zone(Z1, "business", "shop.example.com"));
    const r = analyze(inv);
    expect(r.zones.map((z) => [z.zone.zoneId, z.zone.plan])).toEqual([[Z1, "business"]]);
  });

  it("two zones never share a generated resource name", () => {
    const inv = empty();
    inv.packages.push(pkg("cloudflare_waf_package.a", "high", "block", "var.zone_id"), pkg("module.x.cloudflare_waf_package.a", "high", "block", "local.zone_id"));
    const names = analyze(inv).zones.map((z) => z.rulesetResourceName);
    expect(new Set(names).size).toBe(2);
  });

  it("state removals: instances in state; without state, config addresses unless a count/for_each module hides the keys", () => {
    const inv = empty();
    inv.packages.push({ ...pkg("module.waf.cloudflare_waf_package.a", "high", "block"), ref: ref("module.waf.cloudflare_waf_package.a", Z1, { inState: false, instancesUnknown: true }) });
    inv.rules.push({ ...rule("cloudflare_waf_rule.r", "100015", "block"), ref: ref("cloudflare_waf_rule.r", Z1, { inState: false }) });
    const r = analyze(inv, { stateKnown: false });
    expect(r.zones[0]!.zone.stateRemovals).toEqual(["cloudflare_waf_rule.r"]);
    expect(r.findings.find((f) => f.code === "VALUE_UNRESOLVED")?.details).toEqual({ configAddresses: ["module.waf.cloudflare_waf_package.a"] });
  });
});

describe("ruleset builder", () => {
  it("skip rules (firewall bypasses by priority, then page rules) come before the execute rules", () => {
    const built = buildRuleset({
      packages: [pkg("cloudflare_waf_package.a", "medium", "simulate")],
      firewallRules: [fw(5), { ...fw(1), paused: true }, { ...fw(9), action: "block" }],
      pageRules: [page("example.com/admin/*", true, null), page("example.com/on/*", false, "on")],
    });
    const rules = built.ruleset.rules;
    expect(rules.map((r) => r.action)).toEqual(["skip", "skip", "skip", "execute", "execute"]);
    expect(rules[0]).toMatchObject({ expression: "(ip.src eq 192.0.2.1)", enabled: false, action_parameters: { ruleset: "current" }, logging: { enabled: true } });
    expect(rules[2]!.expression).toBe('http.host wildcard r"example.com" and http.request.uri.path wildcard r"/admin/*"');
    expect(rules[3]!.action_parameters).toEqual({ id: CLOUDFLARE_MANAGED_RULESET_ID });
    expect(rules[4]!.action_parameters).toEqual({
      id: OWASP_CORE_RULESET_ID,
      overrides: {
        categories: [
          { category: "paranoia-level-2", enabled: false },
          { category: "paranoia-level-3", enabled: false },
          { category: "paranoia-level-4", enabled: false },
        ],
        rules: [{ id: OWASP_ANOMALY_SCORE_RULE_ID, action: "log", score_threshold: 25 }],
      },
    });
  });

  it("sensitivity off keeps the OWASP rule, disabled; no package uses the Default row and says so", () => {
    expect(buildRuleset({ packages: [pkg("cloudflare_waf_package.p", "off", "block")], firewallRules: [], pageRules: [] }).ruleset.rules.at(-1)!.enabled).toBe(false);
    const none = buildRuleset({ packages: [], firewallRules: [], pageRules: [] });
    expect(none.coreRuleSet).toMatchObject({ source: "default", paranoiaLevel: 2, scoreThreshold: 40 });
    expect(none.notes.join(" ")).toMatch(/Default row/);
  });

  it("an unknown filter expression becomes a visible placeholder with a note", () => {
    const built = buildRuleset({ packages: [], firewallRules: [fw(1, null)], pageRules: [] });
    expect(built.ruleset.rules[0]!.expression).toBe("<FILTER_EXPRESSION>");
    expect(built.notes[0]).toMatch(/filter expression is not known/);
  });
});
