import { describe, expect, it } from "vitest";
import {
  allowsVersionAtOrAbove,
  compareVersions,
  decideProviderUpgrade,
  formatVersion,
  InvalidConstraintError,
  InvalidVersionError,
  isSatisfiable,
  parseConstraint,
  parseVersion,
  removedBlocksEligible,
  satisfies,
} from "../../src/core/provider-version.js";

describe("parseVersion / compareVersions", () => {
  it.each([
    ["3.35.0", "3.35.0"],
    ["v3.35.0", "3.35.0"],
    ["3.35", "3.35.0"],
    ["4", "4.0.0"],
    ["4.0.0-beta1", "4.0.0-beta1"],
    ["1.2.3-rc.1+build.5", "1.2.3-rc.1+build.5"],
    [" 4.52.8 ", "4.52.8"],
  ])("%s -> %s", (input, out) => {
    expect(formatVersion(parseVersion(input))).toBe(out);
  });

  it.each(["", "x", "3.x", "3.35.0.1", "3.35.0-", "3..0", "-1.0.0", "3.0.0-rc..1"])("rejects %j", (bad) => {
    expect(() => parseVersion(bad)).toThrow(InvalidVersionError);
  });

  it("orders by semver precedence", () => {
    const sorted = ["4.0.0", "4.0.0-rc1", "3.35.0", "4.0.0-beta2", "4.0.0-beta10", "4.0.0-1", "3.9.0", "4.0.0-rc1.1", "10.0.0"]
      .map(parseVersion)
      .sort(compareVersions)
      .map(formatVersion);
    expect(sorted).toEqual([
      "3.9.0",
      "3.35.0",
      "4.0.0-1",
      "4.0.0-beta10",
      "4.0.0-beta2",
      "4.0.0-rc1",
      "4.0.0-rc1.1",
      "4.0.0",
      "10.0.0",
    ]);
    expect(compareVersions("3.35.0+abc", "3.35.0")).toBe(0);
  });
});

describe("parseConstraint: syntax Terraform accepts", () => {
  it.each([
    ["~> 3.30", ["~>", "3.30.0"]],
    ["~>3.30", ["~>", "3.30.0"]],
    ["  ~> 3.30  ", ["~>", "3.30.0"]],
    ["3.35.0", ["=", "3.35.0"]],
    ["= 3.35.0", ["=", "3.35.0"]],
    ["=3.35.0", ["=", "3.35.0"]],
    ["!= 3.20.0", ["!=", "3.20.0"]],
    ["> 3", [">", "3.0.0"]],
    ["<= 3.35", ["<=", "3.35.0"]],
    ["4.0.0-rc1", ["=", "4.0.0-rc1"]],
    [">= 4.0.0-beta.2+x", [">=", "4.0.0-beta.2+x"]],
  ])("%j", (text, [op, v]) => {
    const c = parseConstraint(text);
    expect(c.clauses).toHaveLength(1);
    expect(c.clauses[0]!.operator).toBe(op);
    expect(formatVersion(c.clauses[0]!.version)).toBe(v);
  });

  it("splits comma-separated clauses with any spacing around commas", () => {
    for (const text of [">= 3.0, < 4.0", ">=3.0,<4.0", " >= 3.0 ,  < 4.0 ", ">= 3.0,\n< 4.0"]) {
      expect(parseConstraint(text).clauses.map((c) => c.operator)).toEqual([">=", "<"]);
    }
  });

  it("empty or blank means any version", () => {
    expect(parseConstraint("").clauses).toEqual([]);
    expect(parseConstraint("   ").clauses).toEqual([]);
  });

  it.each([
    [">= v3.0", "v"],
    ["v3.0", "v"],
    [">=  3.0", "only one space"],
    [">=\t3.0", "only one space"],
    [" =3.0, ~>  3.1", "only one space"],
    ["=> 3.0", "did you mean"],
    ["=< 3.0", "did you mean"],
    ["^3.0", "operator"],
    ["~3.0", "operator"],
    ["3.x", "wildcard"],
    ["~> 3.*", "wildcard"],
    [">= 3.0,", "empty clause"],
    [",>= 3.0", "empty clause"],
    ["3.0.0.1", "too many"],
    [">= 3.0 < 4.0", "invalid version"],
    ["foo", "invalid version"],
    [">=", "missing version"],
    [">= 3.0-", "invalid version"],
    ["3.0.0-rc..1", "malformed pre-release"],
  ])("rejects %j (%s)", (text, fragment) => {
    let err: unknown;
    try {
      parseConstraint(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidConstraintError);
    expect((err as InvalidConstraintError).constraint).toBe(text);
    expect((err as Error).message).toContain(fragment);
    expect((err as Error).message).toContain(JSON.stringify(text));
  });
});

describe("satisfies (Terraform provider selection semantics)", () => {
  it.each([
    ["3.35.0", "~> 3.30", true],
    ["3.30.0", "~> 3.30", true],
    ["3.29.9", "~> 3.30", false],
    ["4.0.0", "~> 3.30", false],
    ["3.30.5", "~> 3.30.1", true],
    ["3.30.1", "~> 3.30.1", true],
    ["3.31.0", "~> 3.30.1", false],
    ["3.99.0", "~> 3", true],
    ["4.0.0", "~> 3", false],
    ["3.35.0", "3.35.0", true],
    ["3.35.1", "= 3.35.0", false],
    ["3.20.0", "!= 3.20.0", false],
    ["3.20.1", "!= 3.20.0", true],
    ["3.0.1", "> 3", true],
    ["3.0.0", "> 3", false],
    ["3.35.0", "<= 3.35", true],
    ["3.35.1", "<= 3.35", false],
    ["3.35.0", ">= 3.0, < 4.0", true],
    ["4.0.0", ">= 3.0, < 4.0", false],
    ["5.1.0", "", true],
    ["3.35.0", "v3.35.0".slice(1), true],
    // pre-releases: only an exact clause selects one
    ["4.0.0-rc1", "4.0.0-rc1", true],
    ["4.0.0-rc1", "= 4.0.0-rc1, >= 3.0", true],
    ["4.0.0-rc1", ">= 3.0", false],
    ["4.0.0-rc1", ">= 3.0, < 4.0.0", false],
    ["4.0.0-rc2", ">= 4.0.0-rc1", false],
    ["4.0.0", ">= 4.0.0-rc1", true],
    ["4.0.0-rc1", "", false],
  ] as const)("%s meets %j: %s", (v, c, expected) => {
    expect(satisfies(v, c)).toBe(expected);
  });

  it("ANDs several constraint strings (several modules)", () => {
    expect(satisfies("3.35.0", [">= 3.0", "~> 3.30"])).toBe(true);
    expect(satisfies("3.29.0", [">= 3.0", "~> 3.30"])).toBe(false);
    expect(satisfies("3.35.0", [parseConstraint("~> 3.30"), "< 3.35"])).toBe(false);
  });

  it("core mode is hashicorp/go-version (required_version): same-base pre-releases, unbounded `~> X`", () => {
    expect(satisfies("4.0.0-rc2", ">= 4.0.0-rc1", { mode: "core" })).toBe(true);
    expect(satisfies("4.0.1-rc1", ">= 4.0.0-rc1", { mode: "core" })).toBe(false);
    expect(satisfies("4.0.0-rc1", ">= 3.0", { mode: "core" })).toBe(false);
    expect(satisfies("4.5.0", "~> 3", { mode: "core" })).toBe(true);
    expect(satisfies("4.0.0", "~> 3.30", { mode: "core" })).toBe(false);
    expect(satisfies("3.31.0", "~> 3.30.1", { mode: "core" })).toBe(false);
  });
});

describe("allowsVersionAtOrAbove", () => {
  it.each([
    ["~> 3.30", false],
    ["~> 3", false],
    [">= 3.0", true],
    [">= 3.0, < 4.0", false],
    ["< 5", true],
    ["~> 4.0", true],
    ["3.35.0", false],
    ["!= 3.35.0", true],
    ["> 3.99.99, < 4.0.0", false],
    ["<= 4.0.0", true],
    ["", true],
    ["4.0.0-rc1", false], // a pre-release sorts below 4.0.0
    [">= 3.0.0, != 4.0.0, < 4.1", true], // 4.0.1
    [">= 4.0, < 3.0", false],
  ] as const)("%j >= 4.0.0: %s", (c, expected) => {
    expect(allowsVersionAtOrAbove(c, "4.0.0")).toBe(expected);
  });

  it("reasons on intervals, not on a list of known versions", () => {
    expect(allowsVersionAtOrAbove(">= 3.0, != 4.0.0, < 4.0.1", "4.0.0")).toBe(false);
    expect(allowsVersionAtOrAbove("> 999.0.0", "4.0.0")).toBe(true);
    expect(allowsVersionAtOrAbove("~> 3.35.0", "3.35.17")).toBe(true);
    expect(allowsVersionAtOrAbove("~> 3.35.0", "3.36.0")).toBe(false);
  });

  it("isSatisfiable", () => {
    expect(isSatisfiable(">= 4.0, < 3.0")).toBe(false);
    expect(isSatisfiable("> 3.35.0, < 3.35.1")).toBe(false);
    expect(isSatisfiable("= 3.35.1-rc1, < 3.35.0")).toBe(false);
    // an exactly named pre-release inside every other clause's range is admitted
    expect(isSatisfiable("= 3.35.1-rc1, > 3.35.0, < 3.35.1")).toBe(true);
    expect(isSatisfiable("~> 3.30")).toBe(true);
  });
});

describe("decideProviderUpgrade", () => {
  type Row = {
    constraints: string[];
    lockedVersion?: string;
    targetVersion?: string;
    blocked: boolean;
    allowsLegacyRemoval: boolean;
    lockedHasLegacySchema: boolean | null;
  };
  const c = (
    constraints: string[],
    blocked: boolean,
    extra: Partial<Pick<Row, "lockedVersion" | "targetVersion" | "lockedHasLegacySchema" | "allowsLegacyRemoval">> = {},
  ): Row => ({
    constraints,
    blocked,
    allowsLegacyRemoval: extra.allowsLegacyRemoval ?? blocked,
    lockedHasLegacySchema: extra.lockedHasLegacySchema ?? null,
    ...(extra.lockedVersion !== undefined ? { lockedVersion: extra.lockedVersion } : {}),
    ...(extra.targetVersion !== undefined ? { targetVersion: extra.targetVersion } : {}),
  });

  const table: Row[] = [
    c(["~> 3.30"], false),
    c(["~> 3.30.1"], false),
    c(["~> 3"], false),
    c(["~> 3.35.0"], false),
    c(["~> 2.0"], false),
    c([">= 3.0"], true),
    c([">= 3.0, < 4.0"], false),
    c([">=3.0,<4.0"], false),
    c([">= 3.0, < 4.0.0"], false),
    c(["< 5"], true),
    c(["~> 4.0"], true),
    c(["~> 5.1"], true),
    c(["3.35.0"], false),
    c(["= 3.35.0"], false),
    c(["!= 3.35.0"], true),
    c(["!= 3.20.0"], true),
    c(["> 3"], true),
    c(["> 3.35.0"], true),
    c(["> 3.35.0, < 4.0.0"], false),
    c(["<= 3.35"], false),
    c(["< 4.0.0"], false),
    c(["<= 4.0.0"], true),
    c([""], true),
    c(["   "], true),
    c([], true),
    c(["4.0.0-rc1"], true),
    c([">= 4.0.0-rc1"], true),
    c([">= 3.0.0-beta, < 4.0.0"], false),
    c(["= 4.0.0-rc1, < 4.0.0"], true),
    c(["> 3.99.99, < 4.0.0"], false),
    c([">= 3.0.0, != 4.0.0, < 4.1"], true),
    c([">= 4.0, < 3.0"], false),
    c(["  ~>3.30  "], false),
    // several modules: ANDed
    c([">= 3.0", "~> 3.30"], false),
    c([">= 3.0", "< 5"], true),
    c(["~> 3.30", ""], false),
    // lock file
    c(["~> 3.30"], false, { lockedVersion: "3.35.0", lockedHasLegacySchema: true }),
    c(["~> 3.30"], true, { lockedVersion: "4.52.8", lockedHasLegacySchema: false, allowsLegacyRemoval: false }),
    c([">= 3.0"], true, { lockedVersion: "3.35.0", lockedHasLegacySchema: true }),
    c(["~> 3.30"], true, { lockedVersion: "4.0.0-rc1", lockedHasLegacySchema: false, allowsLegacyRemoval: false }),
    c(["~> 3.30"], false, { lockedVersion: "3.0.0", lockedHasLegacySchema: true }),
    // --target-provider
    c(["~> 3.30"], false, { targetVersion: "3.35" }),
    c(["~> 3.30"], false, { targetVersion: "3.35.0" }),
    c(["~> 3.30"], true, { targetVersion: "4.0", allowsLegacyRemoval: false }),
    c(["~> 3.30"], true, { targetVersion: "5.1", allowsLegacyRemoval: false }),
    c(["~> 3.30"], true, { targetVersion: "v4.52.8", allowsLegacyRemoval: false }),
    c(["~> 3.30"], true, { targetVersion: "4.0.0-rc1", allowsLegacyRemoval: false }),
    c(["~> 3.30"], true, {
      lockedVersion: "3.35.0",
      targetVersion: "5.1",
      lockedHasLegacySchema: true,
      allowsLegacyRemoval: false,
    }),
  ];

  it("has a table of at least 30 cases", () => {
    expect(table.length).toBeGreaterThanOrEqual(30);
  });

  it.each(table.map((r) => [JSON.stringify({ ...r, blocked: undefined, allowsLegacyRemoval: undefined, lockedHasLegacySchema: undefined }), r] as const))(
    "%s",
    (_name, row) => {
      const input = {
        constraints: row.constraints,
        ...(row.lockedVersion !== undefined ? { lockedVersion: row.lockedVersion } : {}),
        ...(row.targetVersion !== undefined ? { targetVersion: row.targetVersion } : {}),
      };
      const d = decideProviderUpgrade(input);
      expect({ blocked: d.blocked, allowsLegacyRemoval: d.allowsLegacyRemoval, lockedHasLegacySchema: d.lockedHasLegacySchema }).toEqual({
        blocked: row.blocked,
        allowsLegacyRemoval: row.allowsLegacyRemoval,
        lockedHasLegacySchema: row.lockedHasLegacySchema,
      });
      expect(d.reason.length).toBeGreaterThan(10);
    },
  );

  it("explains the decision", () => {
    expect(decideProviderUpgrade({ constraints: [">= 3.0"] }).reason).toBe(
      'the constraint ">= 3.0" allows provider 4.0.0, which no longer has the cloudflare_waf_* resources (removed in 4.0.0; 3.35.0 was the last 3.x)',
    );
    expect(decideProviderUpgrade({ constraints: ["~> 3.30"], lockedVersion: "3.35.0" }).reason).toBe(
      'the constraint "~> 3.30" admits only versions below 4.0.0; the lock file selects 3.35.0',
    );
    expect(decideProviderUpgrade({ constraints: [">= 3.0, != 4.0.0, < 4.1"] }).reason).toContain("allows provider 4.0.1");
    expect(decideProviderUpgrade({ constraints: ["4.0.0-rc1"] }).reason).toContain("allows provider 4.0.0-rc1");
    expect(decideProviderUpgrade({ constraints: [">= 4.0, < 3.0"] }).reason).toContain("cannot be met by any version");
    const both = decideProviderUpgrade({ constraints: ["< 5"], lockedVersion: "4.52.8", targetVersion: "5.1.0" }).reason;
    expect(both).toContain("lock file selects provider 4.52.8");
    expect(both).toContain("target provider 5.1.0");
  });

  it("throws typed errors with the offending text", () => {
    expect(() => decideProviderUpgrade({ constraints: ["~> 3.30", ">= v4"] })).toThrow(InvalidConstraintError);
    expect(() => decideProviderUpgrade({ constraints: ["~> 3.30", ">= v4"] })).toThrow(/">= v4"/);
    expect(() => decideProviderUpgrade({ constraints: [], lockedVersion: "latest" })).toThrow(InvalidVersionError);
  });
});

describe("removed {} eligibility", () => {
  it.each([
    [["1.7.0"], ["3.35.0"], true],
    [["1.9.8"], ["3.30.0"], true],
    [["1.6.6"], ["3.35.0"], false],
    [["1.9.8"], ["4.0.0"], false],
    [["1.9.8"], ["4.52.8"], false],
    [[], ["3.35.0"], false],
    [["1.9.8"], [], false],
    [["not-a-version"], ["3.35.0"], false],
  ])("terraform %j, lock %j -> %s", (tf, lock, expected) => {
    expect(removedBlocksEligible(tf, lock)).toBe(expected);
  });
});
