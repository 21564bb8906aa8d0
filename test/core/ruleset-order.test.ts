// RULESET_SKIP_AFTER_EXECUTE: a skip rule of an existing managed-phase ruleset that comes after the execute
// rules it would skip has no effect (the Ruleset Engine evaluates in order). Before, nothing said so.
import { describe, expect, it } from "vitest";
import { CLOUDFLARE_MANAGED_RULESET_ID, OWASP_CORE_RULESET_ID } from "../../src/core/mappings.js";
import type { ExistingRuleset, ExistingRulesetRule } from "../../src/core/model.js";
import { serviceSkipAfterExecuteFindings, skipAfterExecuteFindings } from "../../src/core/ruleset-order.js";

const Z = "0da42c8d2132a9ddaf714f9e7c920711";
const execute = (id: string | null, description: string): ExistingRulesetRule => ({ action: "execute", expression: "true", description, executes: id });
const skip = (skips: ExistingRulesetRule["skips"], description = "health"): ExistingRulesetRule => ({ action: "skip", expression: '(http.request.uri.path eq "/health")', description, skips });

function ruleset(rules: ExistingRulesetRule[], phase = "http_request_firewall_managed"): ExistingRuleset {
  return {
    ref: { address: "cloudflare_ruleset.managed", configAddress: "cloudflare_ruleset.managed", type: "cloudflare_ruleset", file: "main.tf", line: 12, zoneId: Z, inConfig: true, inState: false },
    kind: "zone",
    phase,
    name: "default",
    rules,
  };
}

describe("skip rules after the execute rules they would skip", () => {
  it('ruleset = "current" after both execute rules: one warning naming the skip and both execute rules', () => {
    const f = skipAfterExecuteFindings(ruleset([execute(CLOUDFLARE_MANAGED_RULESET_ID, "Managed"), execute(OWASP_CORE_RULESET_ID, "OWASP"), skip({ current: true, rulesets: [] })]));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ code: "RULESET_SKIP_AFTER_EXECUTE", severity: "warning", zoneId: Z, address: "cloudflare_ruleset.managed", details: { skipRule: 3, executeRules: [1, 2] } });
    expect(f[0]!.message).toContain('the skip rule 3 ("health") comes after the execute rule 1 ("Managed"), rule 2 ("OWASP")');
  });

  it("skip first: nothing", () => {
    expect(skipAfterExecuteFindings(ruleset([skip({ current: true, rulesets: [] }), execute(CLOUDFLARE_MANAGED_RULESET_ID, "Managed")]))).toEqual([]);
  });

  it("a skip naming one managed ruleset is judged against that ruleset's execute rule only", () => {
    const between = ruleset([execute(CLOUDFLARE_MANAGED_RULESET_ID, "Managed"), skip({ current: false, rulesets: [OWASP_CORE_RULESET_ID] }), execute(OWASP_CORE_RULESET_ID, "OWASP")]);
    expect(skipAfterExecuteFindings(between)).toEqual([]);
    const after = ruleset([execute(OWASP_CORE_RULESET_ID, "OWASP"), execute(CLOUDFLARE_MANAGED_RULESET_ID, "Managed"), skip({ current: false, rulesets: [OWASP_CORE_RULESET_ID] })]);
    expect(skipAfterExecuteFindings(after).map((x) => x.details)).toEqual([{ skipRule: 3, executeRules: [1], expression: '(http.request.uri.path eq "/health")' }]);
  });

  it("what a skip skips is not known offline: any earlier execute rule counts", () => {
    expect(skipAfterExecuteFindings(ruleset([execute(null, "dynamic"), skip(null)]))).toHaveLength(1);
  });

  it("other phases are not judged", () => {
    expect(skipAfterExecuteFindings(ruleset([execute(CLOUDFLARE_MANAGED_RULESET_ID, "Managed"), skip({ current: true, rulesets: [] })], "http_request_firewall_custom"))).toEqual([]);
  });

  it("the service's ruleset (--config-json, --online): a skip after the execute rules is flagged at the zone; skip first is not", () => {
    const at = { zoneId: Z, file: "main.tf", line: 3 };
    const exec = { action: "execute", expression: "true", description: "", enabled: true, action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID } };
    const sk = { action: "skip", expression: "true", description: "Page Rule: WAF Off", enabled: true, action_parameters: { ruleset: "current" } };
    const late = serviceSkipAfterExecuteFindings({ name: "default", rules: [exec, sk] }, at);
    expect(late).toMatchObject([{ code: "RULESET_SKIP_AFTER_EXECUTE", zoneId: Z, file: "main.tf", line: 3, details: { skipRule: 2, executeRules: [1], source: "service" } }]);
    expect(serviceSkipAfterExecuteFindings({ name: "default", rules: [sk, exec] }, at)).toEqual([]);
  });
});
