// unplannedRulesetInstances: a root-module ruleset resource with count/for_each that apply imports into may
// have no instance that the run does not import and the state does not hold (terraform would create it).
import { describe, expect, it } from "vitest";
import { unplannedRulesetInstances } from "../../src/apply/unplanned-instances.js";
import type { ExistingRuleset } from "../../src/core/model.js";

const STAGING = "3a4b5c6d7e8f90112233445566778899";
const PROD = "4b5c6d7e8f9011223344556677889900";

function instance(key: string | null, zoneId: string | null, opts: { name?: string; configAddress?: string; noInstances?: boolean } = {}): ExistingRuleset {
  const configAddress = opts.configAddress ?? `cloudflare_ruleset.${opts.name ?? "x"}`;
  return {
    ref: { address: key === null ? configAddress : `${configAddress}["${key}"]`, configAddress, type: "cloudflare_ruleset", file: "ruleset.tf", line: 3, zoneId, inConfig: true, inState: false, ...(opts.noInstances ? { noInstances: true } : {}) },
    kind: "zone",
    phase: "http_request_firewall_managed",
    name: "default",
    rules: [],
  };
}
const importOf = (to: string, zoneId = STAGING) => ({ zoneId, to, id: `zone/${zoneId}/aaaabbbbccccddddeeeeffff00001111` });

describe("unplannedRulesetInstances", () => {
  const both = [instance("staging", STAGING), instance("prod", PROD)];

  it("an instance neither imported nor in state: one line at the resource, naming it and its zone", () => {
    const lines = unplannedRulesetInstances(both, [importOf('cloudflare_ruleset.x["staging"]')], []);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`ruleset.tf:3: cloudflare_ruleset.x has count or for_each, and this run imports only cloudflare_ruleset.x["staging"] (zone ${STAGING}): cloudflare_ruleset.x["prod"] (zone ${PROD}) is neither imported by this run nor in this state`);
  });

  it("nothing when every other instance is imported or in state, or the resource is not imported into", () => {
    expect(unplannedRulesetInstances(both, [importOf('cloudflare_ruleset.x["staging"]'), importOf('cloudflare_ruleset.x["prod"]', PROD)], [])).toEqual([]);
    expect(unplannedRulesetInstances(both, [importOf('cloudflare_ruleset.x["staging"]')], ['cloudflare_ruleset.x["prod"]'])).toEqual([]);
    expect(unplannedRulesetInstances(both, [importOf("cloudflare_ruleset.other")], [])).toEqual([]);
  });

  it("a plain resource, a module's resource and a count-0 resource are left alone", () => {
    expect(unplannedRulesetInstances([instance(null, STAGING), instance(null, PROD, { name: "y" })], [importOf("cloudflare_ruleset.x")], [])).toEqual([]);
    const inModule = [instance("staging", STAGING, { configAddress: "module.m.cloudflare_ruleset.x" }), instance("prod", PROD, { configAddress: "module.m.cloudflare_ruleset.x" })];
    expect(unplannedRulesetInstances(inModule, [importOf('module.m.cloudflare_ruleset.x["staging"]')], [])).toEqual([]);
    expect(unplannedRulesetInstances([instance("staging", STAGING), instance("prod", PROD, { noInstances: true })], [importOf('cloudflare_ruleset.x["staging"]')], [])).toEqual([]);
  });
});
