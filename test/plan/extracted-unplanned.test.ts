// extractedUnplannedInstances: a kept cf-terraforming resource with count/for_each that a plan imports into
// may have no instance that neither a zone of the plan is imported into nor its state holds (terraform would
// create it); the error is at the resource's line and names those instances and their zones.
import { describe, expect, it } from "vitest";
import type { InputError } from "../../src/core/model.js";
import { extractedUnplannedInstances } from "../../src/plan/extracted-match.js";
import type { ExtractedRuleset } from "../../src/terraform/cf-terraforming/read.js";

const STAGING = "3a4b5c6d7e8f90112233445566778899";
const PROD = "4b5c6d7e8f9011223344556677889900";

function kept(forEach: unknown, line = 4): ExtractedRuleset {
  return { resourceName: "x", zoneId: null, zoneIdExpression: "each.value", text: "", constructs: [], line, rules: [], repetition: { count: undefined, forEach, zoneId: "${each.value}" } };
}

function check(e: ExtractedRuleset, use: { names: Record<string, string>; suffixes: Record<string, string>; inState?: string[] | null; knownWorkspace?: string | null }): InputError[] {
  const errors: InputError[] = [];
  const inState = use.inState === undefined ? new Set<string>() : use.inState === null ? null : new Set(use.inState);
  extractedUnplannedInstances([e], { root: "live", workspace: "staging", knownWorkspace: use.knownWorkspace === undefined ? "staging" : use.knownWorkspace, names: use.names, suffixes: use.suffixes, inState }, "cft.tf", errors);
  return errors;
}

describe("extractedUnplannedInstances", () => {
  const both = { staging: STAGING, prod: PROD };
  const staging = { names: { [STAGING]: "x" }, suffixes: { [STAGING]: '["staging"]' } };

  it("an instance for a zone the plan does not import: an error at the resource naming it and its zone", () => {
    const errors = check(kept(both), staging);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: "cft.tf", line: 4, column: null });
    expect(errors[0]!.message).toContain(`cloudflare_ruleset.x has for_each with 2 instances, and the plan of root live (workspace staging) imports only ["staging"] (zone ${STAGING}): ["prod"] (zone ${PROD}) is imported by no zone of this plan and not in this state`);
  });

  it("nothing when every instance is imported, or already in this state", () => {
    expect(check(kept(both), { names: { [STAGING]: "x", [PROD]: "x" }, suffixes: { [STAGING]: '["staging"]', [PROD]: '["prod"]' } })).toEqual([]);
    expect(check(kept(both), { ...staging, inState: ['cloudflare_ruleset.x["prod"]'] })).toEqual([]);
  });

  it("no state read: not assumed absent or present, refused and says none was read", () => {
    expect(check(kept(both), { ...staging, inState: null })[0]!.message).toContain("not in any state (none was read)");
  });

  it("a filtered for_each with one instance in this workspace passes", () => {
    expect(check(kept(`\${{ for k, v in { staging = "${STAGING}", prod = "${PROD}" } : k => v if k == terraform.workspace }}`), staging)).toEqual([]);
  });

  it("a zone_id not known offline is said so; a resource not used, or whose instance is already refused, is left alone", () => {
    expect(check(kept({ staging: STAGING, other: "${var.other}" }), staging)[0]!.message).toContain('["other"] (zone_id not known offline)');
    expect(check(kept(both), { names: {}, suffixes: {} })).toEqual([]);
    expect(check(kept(both), { names: { [STAGING]: "x" }, suffixes: { [STAGING]: "" } })).toEqual([]);
    expect(check(kept("${var.zones}"), staging)).toEqual([]);
  });
});
