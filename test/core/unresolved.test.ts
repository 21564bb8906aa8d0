// Settings unknown offline in core: which rules may bypass the WAF, the findings and their severities,
// the zone's `unresolved` list, and a ruleset that holds TODOs instead of assumed values.
import { describe, expect, it } from "vitest";
import { analyze, type DomainInventory } from "../../src/core/analyze.js";
import { finding } from "../../src/core/findings.js";
import { OWASP_CORE_RULESET_ID } from "../../src/core/mappings.js";
import type { FirewallRule, LegacyWafPackage, PageRule, ResourceRef, UnresolvedSetting } from "../../src/core/model.js";
import { buildRuleset } from "../../src/core/ruleset-builder.js";
import { mayBypassWaf, pageRuleMayTouchWaf } from "../../src/core/unresolved.js";
import { emitRulesetHcl } from "../../src/terraform/hcl/emit.js";

const Z = "0da42c8d2132a9ddaf714f9e7c920711";
const ref = (address: string, type: string): ResourceRef => ({ address, configAddress: address, type, file: "modules/edge/main.tf", line: 29, zoneId: Z, inConfig: true, inState: false });
const u = (attribute: string, expression = `each.value.${attribute}`): UnresolvedSetting => ({ attribute, expression, reason: "var.rules has no value offline" });
const empty = (): DomainInventory => ({ packages: [], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], rulesets: [], zones: [], legacyDataSources: [] });

const fw = (over: Partial<FirewallRule>): FirewallRule => ({
  ref: ref("module.edge.cloudflare_firewall_rule.rule", "cloudflare_firewall_rule"),
  action: null,
  products: [],
  expression: "(ip.src eq 192.0.2.1)",
  filterAddress: null,
  description: null,
  paused: null,
  priority: null,
  ...over,
});
const pr = (over: Partial<PageRule>): PageRule => ({ ref: ref("module.edge.cloudflare_page_rule.rule", "cloudflare_page_rule"), target: "example.com/status/*", disableSecurity: false, waf: null, status: null, priority: 1, ...over });
const pkg = (over: Partial<LegacyWafPackage>): LegacyWafPackage => ({
  ref: ref("module.owasp.cloudflare_waf_package.owasp", "cloudflare_waf_package"),
  packageId: "a25a9a7e9c00afc1fb2e0245519d725b",
  sensitivity: null,
  actionMode: null,
  kind: "owasp",
  ...over,
});

describe("possible bypasses", () => {
  it("a firewall rule may bypass the WAF only while what is known does not rule it out", () => {
    expect(mayBypassWaf(fw({ products: ["waf"], unresolved: [u("action")] }))).toBe(true);
    expect(mayBypassWaf(fw({ unresolved: [u("action"), u("products")] }))).toBe(true);
    expect(mayBypassWaf(fw({ action: "bypass", unresolved: [u("products")] }))).toBe(true);
    expect(mayBypassWaf(fw({ action: "block", unresolved: [u("products")] }))).toBe(false);
    expect(mayBypassWaf(fw({ products: ["uaBlock"], unresolved: [u("action")] }))).toBe(false);
    expect(mayBypassWaf(fw({ action: "bypass", products: ["waf"] }))).toBe(false); // a known bypass, not a possible one
  });

  it("a Page Rule may touch the WAF when disable_security or waf is unknown (or the whole actions block)", () => {
    expect(pageRuleMayTouchWaf(pr({ unresolved: [u("actions.disable_security")] }))).toBe(true);
    expect(pageRuleMayTouchWaf(pr({ unresolved: [u("actions", "each.value.actions")] }))).toBe(true);
    expect(pageRuleMayTouchWaf(pr({ unresolved: [u("target")] }))).toBe(false);
  });
});

describe("findings and the zone report", () => {
  it("an unknown bypass is a warning finding, joins its zone, and is listed in zones[].unresolved", () => {
    const inv = empty();
    inv.firewallRules.push(fw({ unresolved: [u("action"), u("products")] }));
    inv.pageRules.push(pr({ unresolved: [u("actions.disable_security")] }));
    const r = analyze(inv);
    expect(r.zones).toHaveLength(1);
    const found = r.findings.filter((f) => f.code === "VALUE_UNRESOLVED");
    expect(found.map((f) => [f.severity, f.address, f.details!.attribute, f.details!.possibleBypass])).toEqual([
      ["warning", "module.edge.cloudflare_firewall_rule.rule", "action", true],
      ["warning", "module.edge.cloudflare_firewall_rule.rule", "products", true],
      ["warning", "module.edge.cloudflare_page_rule.rule", "actions.disable_security", true],
    ]);
    expect(found.every((f) => f.file === "modules/edge/main.tf" && f.line === 29)).toBe(true);
    expect(r.zones[0]!.zone.unresolved!.map((x) => x.attribute)).toEqual(["action", "products", "actions.disable_security"]);
    expect(r.findings.some((f) => f.code === "FIREWALL_RULE_BYPASS_WAF")).toBe(false);
  });

  it("a value from a module's output says what supplies it: state, not --var (no root variable sets an output)", () => {
    const inv = empty();
    inv.packages.push(pkg({ unresolved: [{ attribute: "sensitivity", expression: "module.settings.sensitivity", reason: "module.settings's outputs are not evaluated offline" }] }));
    const message = analyze(inv).findings.find((f) => f.code === "VALUE_UNRESOLVED")!.message;
    expect(message).toContain("no --var-file/--var sets a module's output here (outputs are not evaluated offline): pass --state");
    expect(message).not.toContain("supply it with --var-file");
  });

  it("a zone whose settings are all known has no unresolved list (the report stays as it was)", () => {
    const inv = empty();
    inv.packages.push(pkg({ sensitivity: "low", actionMode: "block" }));
    expect(analyze(inv).zones[0]!.zone.unresolved).toBeUndefined();
  });

  it("finding(): the code's severity unless one is given", () => {
    expect(finding("VALUE_UNRESOLVED", "m", {}).severity).toBe("info");
    expect(finding("VALUE_UNRESOLVED", "m", {}, undefined, "warning").severity).toBe("warning");
  });
});

describe("the ruleset holds TODOs, not assumptions", () => {
  it("unknown sensitivity: the OWASP rule is disabled with no paranoia level or threshold; a known action is kept", () => {
    const built = buildRuleset({ packages: [pkg({ actionMode: "block", unresolved: [u("sensitivity", "var.sensitivity")] })], firewallRules: [], pageRules: [] });
    const i = built.ruleset.rules.findIndex((r) => r.action_parameters?.id === OWASP_CORE_RULESET_ID);
    const owasp = built.ruleset.rules[i]!;
    expect(owasp.enabled).toBe(false);
    expect(owasp.action_parameters!.overrides!.categories).toBeUndefined();
    expect(owasp.action_parameters!.overrides!.rules![0]).toEqual({ id: "6179ae15870a4bb7b2d480d4843b323c", action: "block" });
    expect(built.coreRuleSet.source).toBe("unresolved");
    expect(built.ruleTodos[i]!.join("\n")).toMatch(/sensitivity = var\.sensitivity is not known offline/);
  });

  it("unknown action mode: the threshold of the known sensitivity, no action", () => {
    const built = buildRuleset({ packages: [pkg({ sensitivity: "medium", unresolved: [u("action_mode", "var.mode")] })], firewallRules: [], pageRules: [] });
    const owasp = built.ruleset.rules.at(-1)!;
    expect(owasp.enabled).toBe(true);
    expect(owasp.action_parameters!.overrides!.rules![0]).toEqual({ id: "6179ae15870a4bb7b2d480d4843b323c", score_threshold: 25 });
  });

  it("a possible bypass becomes a disabled skip rule; a known bypass with an unknown paused flag too", () => {
    const built = buildRuleset({
      packages: [],
      firewallRules: [fw({ unresolved: [u("action"), u("products")] }), fw({ action: "bypass", products: ["waf"], unresolved: [u("paused")], ref: ref("cloudflare_firewall_rule.known", "cloudflare_firewall_rule") })],
      pageRules: [],
    });
    const skips = built.ruleset.rules.filter((r) => r.action === "skip");
    expect(skips.map((r) => r.enabled)).toEqual([false, false]);
    expect(Object.keys(built.ruleTodos)).toEqual(["0", "1"]);
  });

  it("the emitted HCL carries the TODOs inside the rule they concern, for provider 4 and 5", async () => {
    const built = buildRuleset({ packages: [pkg({ unresolved: [u("sensitivity", "var.sensitivity")] })], firewallRules: [], pageRules: [] });
    for (const providerMajor of [4, 5] as const) {
      const tf = await emitRulesetHcl({ resourceName: "waf", zoneIdExpression: JSON.stringify(Z), ruleset: built.ruleset, providerMajor, ruleTodos: built.ruleTodos });
      const owaspStart = tf.indexOf('description = "Cloudflare OWASP Core Ruleset"');
      const todo = tf.indexOf("# TODO: VALUE_UNRESOLVED");
      const managed = tf.indexOf('description = "Cloudflare Managed Ruleset"');
      expect(todo).toBeGreaterThan(managed);
      expect(todo).toBeLessThan(owaspStart);
    }
  });
});
