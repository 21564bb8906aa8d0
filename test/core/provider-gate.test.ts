import { describe, expect, it } from "vitest";
import { providerFindings, type ConstraintEntry, type LegacyAddress, type ProviderGateInput } from "../../src/core/provider-gate.js";

const LEGACY: LegacyAddress[] = [
  { address: 'module.waf["shop"].cloudflare_waf_group.off["de67"]', file: "modules/waf/main.tf", line: 16, zoneId: "0da4" },
  { address: "cloudflare_waf_package.owasp", file: "main.tf", line: 30, zoneId: "0da4" },
  { address: "cloudflare_waf_rule.sqli", file: null, line: null, zoneId: "9a78" },
  // The same instance reported twice (two states): listed once.
  { address: "cloudflare_waf_package.owasp", file: "main.tf", line: 30, zoneId: "0da4" },
];
const ROOT_ENTRY = (text: string): ConstraintEntry => ({ text, file: "versions.tf", line: 4 });
const LOCK = (version: string) => ({ version, file: ".terraform.lock.hcl", line: 4 });

function run(partial: Partial<ProviderGateInput>) {
  return providerFindings({ constraints: [], lock: null, legacyAddresses: LEGACY, ...partial });
}

describe("providerFindings: blocked or not", () => {
  // [constraints, locked version, target, blocked, where the finding points]
  const table: [string[], string | null, string | undefined, boolean, string | null][] = [
    [["~> 3.30"], "3.35.0", undefined, false, null],
    [["~> 3.0"], null, undefined, false, null],
    [["~> 3"], null, undefined, false, null],
    [["~> 3.35.0"], null, undefined, false, null],
    [["3.35.0"], null, undefined, false, null],
    [["= 3.35.0"], null, undefined, false, null],
    [["< 4.0.0"], null, undefined, false, null],
    [[">= 3.0, < 4.0"], null, undefined, false, null],
    [[">= 3.0"], null, undefined, true, "versions.tf:4"],
    [[">= 3.0"], "3.35.0", undefined, true, "versions.tf:4"],
    [["~> 4.0"], null, undefined, true, "versions.tf:4"],
    [["<= 4.0.0"], null, undefined, true, "versions.tf:4"],
    [["!= 3.30.0"], null, undefined, true, "versions.tf:4"],
    [[""], "3.35.0", undefined, true, "versions.tf:4"], // an entry without a version: any version
    [["~> 3.30"], "4.52.8", undefined, true, ".terraform.lock.hcl:4"], // a lock that disagrees: only the lock says so
    [[], "3.35.0", undefined, true, ".terraform.lock.hcl:4"], // no entry anywhere: the lock is where it shows
    [[], null, undefined, true, "main.tf:1"], // neither: the fallback
    [["~> 3.30"], "3.35.0", "4.52.8", true, "versions.tf:4"],
    [["~> 3.30"], "3.35.0", "3.35.0", false, null],
    [["~> 3.30"], null, "4.0.0-rc1", true, "versions.tf:4"],
    [[], "3.35.0", "5.0.0", true, ".terraform.lock.hcl:4"],
  ];
  it.each(table)("constraints %j, lock %s, target %s → blocked %s at %s", (constraints, lock, target, blocked, at) => {
    const r = run({
      constraints: constraints.map(ROOT_ENTRY),
      lock: lock ? LOCK(lock) : null,
      ...(target !== undefined ? { targetVersion: target } : {}),
      fallback: { file: "main.tf", line: 1 },
    });
    expect(r.errors).toEqual([]);
    expect(r.decision?.blocked).toBe(blocked);
    expect(r.findings).toHaveLength(blocked ? 1 : 0);
    if (blocked) expect(`${r.findings[0]!.file}:${r.findings[0]!.line}`).toBe(at);
  });

  it("ANDs the constraints of every module: a bounded root keeps an unbounded module from blocking", () => {
    const r = run({ constraints: [{ text: "~> 3.30", file: "main.tf", line: 4 }, { text: ">= 3.0", file: "modules/waf/versions.tf", line: 3 }] });
    expect(r.decision?.blocked).toBe(false);
    expect(r.findings).toEqual([]);
  });

  it("points at the first entry (the root module's entries come first)", () => {
    // When the constraints together admit 4.0, every one of them does: the first is the one to change.
    const r = run({
      constraints: [
        { text: ">= 3.20", file: "main.tf", line: 4 },
        { text: "", file: "modules/waf/versions.tf", line: 3 },
      ],
    });
    expect(r.findings[0]).toMatchObject({ file: "main.tf", line: 4 });
  });

  it("without entry, lock or fallback, points at the first legacy resource that has a location", () => {
    const r = run({});
    expect(r.findings[0]).toMatchObject({ file: "main.tf", line: 30 });
  });
});

describe("providerFindings: the finding", () => {
  it("is one error naming the reason and every legacy address, with zoneId null", () => {
    const r = run({ constraints: [ROOT_ENTRY(">= 3.0")], lock: LOCK("3.35.0") });
    expect(r.findings).toHaveLength(1);
    const f = r.findings[0]!;
    expect(f).toMatchObject({ code: "PROVIDER_UPGRADE_BLOCKED", severity: "error", zoneId: null, address: null, file: "versions.tf", line: 4 });
    const addresses = ["cloudflare_waf_package.owasp", "cloudflare_waf_rule.sqli", 'module.waf["shop"].cloudflare_waf_group.off["de67"]'];
    expect(f.details).toMatchObject({ addresses, constraints: [">= 3.0"], lockedVersion: "3.35.0", targetVersion: null });
    for (const a of addresses) expect(f.message).toContain(a);
    expect(f.message).toContain('the constraint ">= 3.0" allows provider 4.0.0');
    expect(f.message).toContain("3 legacy WAF resources");
    expect(r.summary).toMatch(/^provider upgrade blocked: 3 legacy WAF resources remain/);
  });

  it("says '1 legacy WAF resource remains' of one", () => {
    const r = run({ constraints: [ROOT_ENTRY(">= 3.0")], lock: LOCK("3.35.0"), legacyAddresses: [{ address: "cloudflare_waf_package.owasp", file: "main.tf", line: 1 }] });
    expect(r.summary).toMatch(/^provider upgrade blocked: 1 legacy WAF resource remains and /);
  });

  it("counts blocks whose count/for_each gives no instance as blocks, not resources; the JSON lists them apart", () => {
    const blocks: LegacyAddress[] = [
      { address: "module.waf.cloudflare_waf_package.owasp", file: "modules/waf/main.tf", line: 9, zoneId: null, noInstances: true },
      { address: "cloudflare_waf_rule.extra", file: "main.tf", line: 14, zoneId: null, noInstances: true },
    ];
    const only = run({ constraints: [ROOT_ENTRY(">= 3.0")], legacyAddresses: blocks });
    expect(only.summary).toMatch(/^provider upgrade blocked: 2 legacy WAF blocks with no instance remain and /);
    expect(only.findings[0]!.message).toMatch(/would break 2 legacy WAF blocks with no instance:/);
    expect(only.findings[0]!.details).toMatchObject({ addresses: ["cloudflare_waf_rule.extra", "module.waf.cloudflare_waf_package.owasp"], withoutInstances: ["cloudflare_waf_rule.extra", "module.waf.cloudflare_waf_package.owasp"] });
    const mixed = run({ constraints: [ROOT_ENTRY(">= 3.0")], legacyAddresses: [LEGACY[1]!, blocks[1]!] });
    expect(mixed.summary).toMatch(/^provider upgrade blocked: 1 legacy WAF resource and 1 block with no instance remain and /);
    expect(mixed.findings[0]!.details).toMatchObject({ addresses: ["cloudflare_waf_package.owasp", "cloudflare_waf_rule.extra"], withoutInstances: ["cloudflare_waf_rule.extra"] });
    const kept = run({ constraints: [ROOT_ENTRY("~> 3.30")], legacyAddresses: [blocks[0]!] });
    expect(kept.summary).toContain("the 1 legacy WAF block with no instance keeps working until it is migrated");
    expect(run({ constraints: [ROOT_ENTRY(">= 3.0")] }).findings[0]!.details).not.toHaveProperty("withoutInstances");
  });

  it("names the target when only --target-provider blocks", () => {
    const r = run({ constraints: [ROOT_ENTRY("~> 3.30")], lock: LOCK("3.35.0"), targetVersion: "4.52.8" });
    expect(r.findings[0]!.message).toContain("the target provider 4.52.8 no longer has the cloudflare_waf_* resources");
    expect(r.findings[0]!.message).toContain("Migrate them before moving to 4.52.8");
    expect(r.findings[0]!.details).toMatchObject({ targetVersion: "4.52.8" });
  });

  it("names the root module when a run covers several", () => {
    const r = run({ constraints: [ROOT_ENTRY(">= 3.0")], root: "envs/prod" });
    expect(r.findings[0]!.message).toMatch(/^Upgrading the Cloudflare provider \(root module envs\/prod\) would break/);
    expect(r.findings[0]!.details).toMatchObject({ root: "envs/prod" });
  });

  it("reports nothing when no legacy resource remains: the upgrade is safe", () => {
    const r = run({ constraints: [ROOT_ENTRY(">= 3.0")], legacyAddresses: [], targetVersion: "5.8.0" });
    expect(r.findings).toEqual([]);
    expect(r.decision?.blocked).toBe(true);
    expect(r.summary).toBe("no legacy WAF resources remain, so moving the provider to 4.0.0 or later (where they no longer exist) is safe, the target 5.8.0 included");
  });

  it("an empty run's summary does not also say what would block the upgrade (it read as a contradiction)", () => {
    for (const constraints of [[], [ROOT_ENTRY(">= 3.0")]]) {
      const r = run({ constraints, legacyAddresses: [] });
      expect(r.summary).toBe("no legacy WAF resources remain, so moving the provider to 4.0.0 or later (where they no longer exist) is safe");
      expect(r.summary).not.toMatch(/constraint|allows|removed in/);
    }
  });

  it("says the legacy resources keep working while the provider stays on 3.x", () => {
    const r = run({ constraints: [ROOT_ENTRY("~> 3.30")], lock: LOCK("3.35.0") });
    expect(r.summary).toContain("the 3 legacy WAF resources keep working");
  });
});

describe("providerFindings: input that does not parse", () => {
  it("an invalid constraint is an input error at its version line; nothing is decided", () => {
    const r = run({ constraints: [{ text: "=> 3.0", file: "versions.tf", line: 4, versionLine: 6 }, ROOT_ENTRY("~> 3.30")] });
    expect(r.findings).toEqual([]);
    expect(r.decision).toBeNull();
    expect(r.errors).toEqual([{ file: "versions.tf", line: 6, column: null, message: expect.stringContaining('did you mean ">="?') }]);
    expect(r.summary).toContain("could not be judged");
  });

  it("a locked version that is not a version is an input error at the lock", () => {
    const r = run({ constraints: [ROOT_ENTRY("~> 3.30")], lock: LOCK("three") });
    expect(r.errors).toEqual([{ file: ".terraform.lock.hcl", line: 4, column: null, message: expect.stringContaining("locked provider version") }]);
  });

  it("a bad target version is an input error", () => {
    const r = run({ constraints: [ROOT_ENTRY("~> 3.30")], targetVersion: "latest" });
    expect(r.errors[0]).toMatchObject({ file: "--target-provider", line: null });
  });
});
