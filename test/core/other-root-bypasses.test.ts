// Which rules of roots a run leaves out concern its zones: the matching (literal zone ids on both sides only),
// the findings and step 2's note, and apply's refusals (none when the declared ruleset has the skip rule).
import { describe, expect, it } from "vitest";
import type { ExistingRuleset, FirewallRule, PageRule, ResourceRef } from "../../src/core/model.js";
import { applyRefusals, matchOtherRootBypasses, otherRootBypassFindings, otherRootRulesetNote, type OtherRootRules } from "../../src/core/other-root-bypasses.js";

const DOCS = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7";
const OTHER = "0da42c8d2132a9ddaf714f9e7c920711";

const ref = (address: string, zoneId: string | null, line: number): ResourceRef => ({
  address,
  configAddress: address,
  type: address.split(".")[0]!,
  file: "../edge/page-rules.tf",
  line,
  zoneId,
  inConfig: true,
  inState: false,
});
const page = (address: string, zoneId: string | null, over: Partial<PageRule> = {}): PageRule => ({
  ref: ref(address, zoneId, 6),
  target: "https://docs.example.net/status*",
  disableSecurity: true,
  waf: null,
  status: "active",
  priority: 1,
  ...over,
});
const firewall = (address: string, zoneId: string | null, over: Partial<FirewallRule> = {}): FirewallRule => ({
  ref: ref(address, zoneId, 20),
  action: "bypass",
  products: ["waf"],
  expression: '(http.request.uri.path eq "/health")',
  filterAddress: null,
  description: null,
  paused: false,
  priority: 1,
  ...over,
});
const edge = (rules: Partial<OtherRootRules>): OtherRootRules => ({ root: "edge", firewallRules: [], pageRules: [], ...rules });

describe("matchOtherRootBypasses", () => {
  it("a Disable Security / WAF Off Page Rule or a Bypass > WAF firewall rule for one of the run's zones matches it", () => {
    const scan = matchOtherRootBypasses([DOCS], [
      edge({
        pageRules: [page("cloudflare_page_rule.status", DOCS), page("cloudflare_page_rule.search", DOCS, { disableSecurity: false, waf: "off" }), page("cloudflare_page_rule.cache", DOCS, { disableSecurity: false })],
        firewallRules: [firewall("cloudflare_firewall_rule.health", DOCS), firewall("cloudflare_firewall_rule.block", DOCS, { action: "block" })],
      }),
    ]);
    expect(scan.bypasses.map((b) => [b.rule.value.ref.address, b.match, b.known])).toEqual([
      ["cloudflare_firewall_rule.health", "zone", true],
      ["cloudflare_page_rule.status", "zone", true],
      ["cloudflare_page_rule.search", "zone", true],
    ]);
  });

  it("another literal zone is not the run's business; an expression is never taken for the zone, nor ignored", () => {
    const scan = matchOtherRootBypasses([DOCS], [edge({ pageRules: [page("cloudflare_page_rule.a", OTHER), page("cloudflare_page_rule.b", "var.zone_id")] })]);
    expect(scan.bypasses.map((b) => [b.rule.value.ref.address, b.match, b.zoneId])).toEqual([["cloudflare_page_rule.b", "maybe", "var.zone_id"]]);
  });

  it("a run whose own zone is not known offline may be any literal zone of the others", () => {
    const scan = matchOtherRootBypasses(["cloudflare_zone.docs.id"], [edge({ pageRules: [page("cloudflare_page_rule.a", OTHER)] })]);
    expect(scan.bypasses.map((b) => b.match)).toEqual(["maybe"]);
  });

  it("a run without zones looks at nothing", () => {
    expect(matchOtherRootBypasses([], [edge({ pageRules: [page("cloudflare_page_rule.a", DOCS)] })]).bypasses).toEqual([]);
  });
});

describe("otherRootBypassFindings", () => {
  it("BYPASS_IN_OTHER_ROOT at each rule; VALUE_UNRESOLVED for unknown settings, unknown zones (one per root) and unreadable roots", () => {
    const scan = matchOtherRootBypasses([DOCS], [
      edge({
        pageRules: [page("cloudflare_page_rule.status", DOCS), page("cloudflare_page_rule.maybe", DOCS, { disableSecurity: false, unresolved: [{ attribute: "actions.disable_security", expression: "var.x", reason: "r" }] })],
        firewallRules: [firewall("cloudflare_firewall_rule.x", "var.zone_id"), firewall("cloudflare_firewall_rule.y", "var.zone_id")],
      }),
      { root: "broken", firewallRules: [], pageRules: [], unreadable: ["broken/main.tf:3: bad"] },
    ]);
    const findings = otherRootBypassFindings(scan, ".");
    expect(findings.map((f) => [f.code, f.severity, f.zoneId, f.file, f.line])).toEqual([
      ["BYPASS_IN_OTHER_ROOT", "error", DOCS, "../edge/page-rules.tf", 6],
      ["VALUE_UNRESOLVED", "warning", DOCS, "../edge/page-rules.tf", 6],
      ["VALUE_UNRESOLVED", "warning", null, "../edge/page-rules.tf", 20],
      ["VALUE_UNRESOLVED", "warning", null, null, null],
    ]);
    expect(findings[0]!.message).toContain("cloudflare_page_rule.status in root edge (not in this run) disables security");
    expect(findings[0]!.message).toContain("`cf-waf-migrate plan .`");
    expect(findings[0]!.message).toContain("or pass edge too");
    expect(findings[2]!.message).toMatch(/has 2 rules .*not known offline/);
    expect(findings[3]!.message).toContain("broken/main.tf:3: bad");
    expect(otherRootRulesetNote(scan, ".")).toMatch(/^the ruleset lacks the skip rules of Page Rules or firewall rules in edge, broken, roots not in this run \(BYPASS_IN_OTHER_ROOT, VALUE_UNRESOLVED\)/);
  });

  it("nothing found: no finding, no note", () => {
    const scan = matchOtherRootBypasses([DOCS], [edge({})]);
    expect(otherRootBypassFindings(scan, ".")).toEqual([]);
    expect(otherRootRulesetNote(scan, ".")).toBeNull();
  });
});

describe("applyRefusals", () => {
  const rule = page("cloudflare_page_rule.status", DOCS);
  const scan = matchOtherRootBypasses([DOCS], [edge({ pageRules: [rule] })]);
  const declared = (expression: string): ExistingRuleset => ({
    ref: { ...ref("cloudflare_ruleset.waf", DOCS, 1), file: "ruleset.tf" },
    kind: "zone",
    phase: "http_request_firewall_managed",
    name: "default",
    rules: [{ action: "skip", expression, description: null }],
  });

  it("refuses while the root's ruleset lacks the skip rule the migration gives the rule", () => {
    const refused = applyRefusals(scan, () => ({ rulesets: [], zone: null }), "..");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^\.\.\/edge\/page-rules\.tf:6: cloudflare_page_rule\.status in root edge disables security .* --accept-missing-skip-rules/);
    expect(applyRefusals(scan, () => ({ rulesets: [declared("true")], zone: null }), "..")).toHaveLength(1);
  });

  it("goes on when the declared ruleset has it (the estate plan's ruleset.tf copied in)", () => {
    const expression = 'ssl and http.host wildcard r"docs.example.net" and http.request.uri.path wildcard r"/status*"';
    expect(applyRefusals(scan, () => ({ rulesets: [declared(expression)], zone: null }), "..")).toEqual([]);
  });

  it("a rule whose zone is not known offline stops it too", () => {
    const unknown = matchOtherRootBypasses([DOCS], [edge({ pageRules: [page("cloudflare_page_rule.x", "var.zone_id")] })]);
    expect(applyRefusals(unknown, () => ({ rulesets: [], zone: null }), "..")[0]).toContain("not known offline");
  });
});
