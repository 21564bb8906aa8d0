// The entry point rulesets of roots a run leaves out, for the zones whose ruleset it plans: a literal zone id
// on both sides; one MANAGED_RULESET_EXISTS at each such ruleset, naming its root.
import { describe, expect, it } from "vitest";
import type { ResourceRef } from "../../src/core/model.js";
import type { OtherRootRules } from "../../src/core/other-root-bypasses.js";
import { otherRootEntryPointFindings } from "../../src/core/other-root-entry-points.js";

const ZONE = "9a7806061c88ada191ed06f989cc3dac";
const OTHER = "0da42c8d2132a9ddaf714f9e7c920711";

const ref = (address: string, zoneId: string | null, line: number, over: Partial<ResourceRef> = {}): ResourceRef => ({
  address,
  configAddress: address,
  type: "cloudflare_ruleset",
  file: "../edge/main.tf",
  line,
  zoneId,
  inConfig: true,
  inState: false,
  ...over,
});
const edge = (refs: ResourceRef[]): OtherRootRules => ({ root: "../edge", firewallRules: [], pageRules: [], entryPoints: refs });

describe("otherRootEntryPointFindings", () => {
  it("names each other root's entry point ruleset of a planned zone, at its line", () => {
    const f = otherRootEntryPointFindings([ZONE], [edge([ref("cloudflare_ruleset.managed", ZONE, 10), ref("cloudflare_ruleset.other", OTHER, 30)])]);
    expect(f.map((x) => [x.code, x.severity, x.zoneId, x.address, x.file, x.line, x.details])).toEqual([
      ["MANAGED_RULESET_EXISTS", "info", ZONE, "cloudflare_ruleset.managed", "../edge/main.tf", 10, { otherRoot: "../edge", address: "cloudflare_ruleset.managed" }],
    ]);
    expect(f[0]!.message).toBe(
      "cloudflare_ruleset.managed in root ../edge (not in this run) already manages this zone's http_request_firewall_managed entry point: merge the skip rules planned here into it there instead of adding and importing a second resource here (two roots would manage one ruleset, each apply overwriting the other)",
    );
  });

  it("an expression zone id (either side) or a ruleset known to have no instance is not taken for the zone", () => {
    expect(otherRootEntryPointFindings([ZONE], [edge([ref("cloudflare_ruleset.a", "var.zone_id", 1), ref("cloudflare_ruleset.b", ZONE, 2, { noInstances: true })])])).toEqual([]);
    expect(otherRootEntryPointFindings(["var.zone_id"], [edge([ref("cloudflare_ruleset.a", "var.zone_id", 1)])])).toEqual([]);
  });
});
