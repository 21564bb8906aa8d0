// Which legacy WAF resources of roots a run leaves out concern the zones whose ruleset it plans: literal zone
// ids on both sides only (an expression is "maybe", never taken for the zone nor ignored), count-0 resources
// configure nothing; the findings, step 2/3's note and apply's refusals (a known zone has no override).
import { describe, expect, it } from "vitest";
import type { ResourceRef } from "../../src/core/model.js";
import type { OtherRootRules } from "../../src/core/other-root-bypasses.js";
import { legacyWafApplyRefusals, matchOtherRootLegacyWaf, otherRootLegacyWafFindings, otherRootLegacyWafNote } from "../../src/core/other-root-legacy-waf.js";

const DOCS = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7";
const OTHER = "0da42c8d2132a9ddaf714f9e7c920711";

const ref = (address: string, zoneId: string | null, line: number, over: Partial<ResourceRef> = {}): ResourceRef => ({
  address,
  configAddress: address,
  type: address.split(".")[0]!,
  file: "../legacy-waf/main.tf",
  line,
  zoneId,
  inConfig: true,
  inState: false,
  ...over,
});
const legacy = (refs: ResourceRef[], root = "legacy-waf"): OtherRootRules => ({ root, firewallRules: [], pageRules: [], legacyWaf: refs });

describe("matchOtherRootLegacyWaf", () => {
  it("one match per root and zone, at its first resource in file order; count 0 and other zones are left out", () => {
    const m = matchOtherRootLegacyWaf(
      [DOCS],
      [
        legacy([
          ref('cloudflare_waf_rule.rules["1"]', DOCS, 48),
          ref("cloudflare_waf_package.owasp", DOCS, 27),
          ref("cloudflare_waf_group.strict", DOCS, 35, { noInstances: true }),
          ref("cloudflare_waf_package.other", OTHER, 60),
        ]),
      ],
    );
    expect(m).toEqual([{ root: "legacy-waf", match: "zone", zoneId: DOCS, refs: [expect.objectContaining({ line: 27 }), expect.objectContaining({ line: 48 })] }]);
  });

  it("a zone id not known offline, there or here, is maybe; known on both sides and different is nothing", () => {
    expect(matchOtherRootLegacyWaf([DOCS], [legacy([ref("cloudflare_waf_package.owasp", "var.zone_id", 27)])])).toEqual([
      { root: "legacy-waf", match: "maybe", zoneId: null, refs: [expect.objectContaining({ line: 27 })] },
    ]);
    expect(matchOtherRootLegacyWaf(["var.zone_id"], [legacy([ref("cloudflare_waf_package.owasp", OTHER, 27)])])).toHaveLength(1);
    expect(matchOtherRootLegacyWaf([DOCS], [legacy([ref("cloudflare_waf_package.owasp", OTHER, 27)])])).toEqual([]);
    expect(matchOtherRootLegacyWaf([], [legacy([ref("cloudflare_waf_package.owasp", "var.zone_id", 27)])])).toEqual([]);
    expect(matchOtherRootLegacyWaf([DOCS], [{ root: "edge", firewallRules: [], pageRules: [] }])).toEqual([]);
  });
});

describe("findings, note and apply refusals", () => {
  const known = matchOtherRootLegacyWaf([DOCS], [legacy([ref("cloudflare_waf_package.owasp", DOCS, 27)])]);
  const maybe = matchOtherRootLegacyWaf([DOCS], [legacy([ref("cloudflare_waf_package.owasp", "var.zone_id", 27)], "other")]);

  it("LEGACY_WAF_IN_OTHER_ROOT error at the legacy resource; VALUE_UNRESOLVED warning when not known offline", () => {
    const [f] = otherRootLegacyWafFindings(known, ".");
    expect(f).toMatchObject({ code: "LEGACY_WAF_IN_OTHER_ROOT", severity: "error", zoneId: DOCS, file: "../legacy-waf/main.tf", line: 27, details: { otherRoot: "legacy-waf", legacyWaf: true } });
    expect(f!.message).toContain("two roots managing one ruleset");
    expect(f!.message).toContain("spec's Default row");
    expect(f!.message).toContain("`cf-waf-migrate plan .`");
    expect(f!.message).toContain("--ruleset-root ZONE_ID=ROOT");
    const [u] = otherRootLegacyWafFindings(maybe, ".");
    expect(u).toMatchObject({ code: "VALUE_UNRESOLVED", severity: "warning", zoneId: null, line: 27, details: { otherRoot: "other", possibleLegacyWaf: true } });
  });

  it("the note says not to copy or import the ruleset", () => {
    expect(otherRootLegacyWafNote([], ".")).toBeNull();
    expect(otherRootLegacyWafNote(known, ".")).toMatch(/^do not copy or import this ruleset: legacy-waf \(not in this run\) configures the legacy WAF .*\(LEGACY_WAF_IN_OTHER_ROOT\)/);
    expect(otherRootLegacyWafNote(maybe, ".")).toMatch(/may configure .*\(VALUE_UNRESOLVED\)/);
  });

  it("apply refuses a known zone always, one not known offline unless accepted", () => {
    expect(legacyWafApplyRefusals(known, ".", true)).toHaveLength(1);
    expect(legacyWafApplyRefusals(known, ".", false)[0]).toMatch(/^\.\.\/legacy-waf\/main\.tf:27: root legacy-waf configures the legacy WAF of zone /);
    expect(legacyWafApplyRefusals(maybe, ".", false)[0]).toContain("--accept-other-root-legacy-waf");
    expect(legacyWafApplyRefusals(maybe, ".", true)).toEqual([]);
  });
});
