// The version matrix: provider constraints and lock files × the legacy settings the migration keeps. Each
// generated ruleset is rendered, parsed back, and every construct it uses must exist, per the feature table
// read from the provider's source, in every provider version the root may run steps 1-6 on; what cannot be
// kept is refused with the construct, its minimum version and the constraint's file:line.
// test/sandbox/version-matrix.test.ts runs the same matrix end to end: plan --out-dir, then the real
// `terraform init` + `validate` against the provider double serving each version's transcribed schema.
import { parse } from "@cdktn/hcl2json";
import { describe, expect, it } from "vitest";
import type { FirewallRule, LegacyWafPackage, ResourceRef, Ruleset } from "../../src/core/model.js";
import { buildRuleset } from "../../src/core/ruleset-builder.js";
import { admittedReleases, hasConstruct } from "../../src/core/ruleset-features.js";
import { fitRoot, fitRulesetToRoots, terraformVersions, type RootVersionInput } from "../../src/core/version-fit.js";
import { emitRulesetHcl } from "../../src/terraform/hcl/emit.js";
import { importRefusals } from "../../src/apply/version-check.js";
import { hclConstructs } from "./hcl-constructs.js";

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";

function ref(type: string, name: string, line: number): ResourceRef {
  return { address: `${type}.${name}`, configAddress: `${type}.${name}`, type, file: "waf.tf", line, zoneId: ZONE, inConfig: true, inState: true };
}

const lowPackage: LegacyWafPackage = { ref: ref("cloudflare_waf_package", "owasp", 8), packageId: "a25a9a7e9c00afc1fb2e0245519d725b", sensitivity: "low", actionMode: "block", kind: "owasp" };
const bypass: FirewallRule = {
  ref: ref("cloudflare_firewall_rule", "monitors", 28),
  action: "bypass",
  products: ["waf"],
  expression: '(http.request.uri.path eq "/healthz")',
  filterAddress: "cloudflare_filter.monitors",
  description: null,
  paused: false,
  priority: 10,
};

/** A group in mode off, as the service's equivalent configuration (--config-json) expresses it. */
const groupOff: Ruleset = {
  name: "default",
  rules: [
    {
      action: "execute",
      expression: "true",
      description: "",
      enabled: true,
      action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee", overrides: { categories: [{ category: "wordpress", enabled: false }] } },
    },
  ],
};

const SETTINGS: [string, Ruleset][] = [
  ["package sensitivity low", buildRuleset({ packages: [lowPackage], firewallRules: [], pageRules: [] }).ruleset],
  ["group mode off", groupOff],
  ["a bypass firewall rule", buildRuleset({ packages: [], firewallRules: [bypass], pageRules: [] }).ruleset],
];

interface Row {
  name: string;
  constraint: string | null;
  lock?: string;
  /** Required constructs that cannot be kept (refused), by construct path. */
  refused: string[];
  /** Whether logging on a skip rule is left out. */
  logging: boolean;
}

// Facts from the provider's source: import of cloudflare_ruleset from 3.29.0, rule logging from 3.13.0.
const ROWS: Row[] = [
  { name: "~> 2.26.0", constraint: "~> 2.26.0", refused: ["import"], logging: false },
  { name: "~> 3.4.0", constraint: "~> 3.4.0", refused: ["import"], logging: false },
  { name: "~> 3.9.1", constraint: "~> 3.9.1", refused: ["import"], logging: false },
  { name: "~> 3.12", constraint: "~> 3.12", refused: ["import"], logging: false },
  { name: ">= 3.13, < 4", constraint: ">= 3.13, < 4", refused: ["import"], logging: true },
  { name: "lock 3.20.0 under >= 3.0", constraint: ">= 3.0", lock: "3.20.0", refused: ["import"], logging: true },
  { name: "~> 3.35", constraint: "~> 3.35", refused: [], logging: true },
  { name: "none at all", constraint: null, refused: [], logging: true },
];

function rootInput(row: Row): RootVersionInput {
  return {
    root: ".",
    provider: row.constraint === null ? [] : [{ constraint: row.constraint, file: "versions.tf", line: 7, module: "" }],
    lock: row.lock ? { version: row.lock, file: ".terraform.lock.hcl", line: 4 } : null,
    terraform: [{ constraint: ">= 1.5", file: "versions.tf", line: 2 }],
    openTofu: false,
    anchor: { file: "versions.tf", line: 1 },
    hasLegacy: true,
  };
}

describe("version matrix: constraints and locks × legacy settings", () => {
  for (const row of ROWS) {
    for (const [setting, ruleset] of SETTINGS) {
      it(`${row.name} × ${setting}`, async () => {
        const root = fitRoot(rootInput(row));
        const fit = fitRulesetToRoots(ruleset, [root]);
        // What steps 1-6 may run on.
        const versions = admittedReleases(root.provider.target);
        expect(versions.length).toBeGreaterThan(0);
        const hcl = await emitRulesetHcl({ resourceName: "r", zoneIdExpression: `"${ZONE}"`, ruleset: fit.ruleset, providerMajor: 4 });
        const used = hclConstructs(await parse("ruleset.tf", hcl));
        for (const c of used) for (const v of versions) expect(hasConstruct(c, v), `${c} at provider ${v}`).toBe(true);

        expect(fit.missing.map((m) => m.construct)).toEqual(row.refused);
        const refusals = fit.findings.filter((f) => f.code === "PROVIDER_FEATURE_MISSING");
        expect(refusals).toHaveLength(row.refused.length);
        for (const f of refusals) {
          expect(f.severity).toBe("error");
          expect(f.message).toContain("3.29.0");
          expect(f.message).toContain("raise the constraint to ~> 3.35 and run terraform init -upgrade");
          if (row.lock) {
            expect(f.message).toContain(`the lock file (.terraform.lock.hcl:4) selects provider ${row.lock}`);
            expect([f.file, f.line]).toEqual([".terraform.lock.hcl", 4]);
          } else {
            expect(f.message).toContain(`"${row.constraint}" (versions.tf:7) admits provider ${versions[0]}`);
            expect([f.file, f.line]).toEqual(["versions.tf", 7]);
          }
        }

        const hasSkip = ruleset.rules.some((r) => r.logging);
        expect(used.includes("rules.logging")).toBe(hasSkip && row.logging);
        const omitted = fit.findings.filter((f) => f.code === "RULESET_CONSTRUCT_OMITTED");
        expect(omitted.map((f) => (f.details as { construct: string }).construct)).toEqual(hasSkip && !row.logging ? ["rules.logging"] : []);

        const warned = root.findings.filter((f) => f.code === "PROVIDER_CONSTRAINT_MISSING");
        expect(warned).toHaveLength(row.constraint === null ? 1 : 0);
      });
    }
  }

  it("no constraint at all: the warning points at the terraform block (or the resource), and the plan assumes ~> 3.35", () => {
    const root = fitRoot({ ...rootInput(ROWS.at(-1)!), anchor: { file: "waf.tf", line: 8 } });
    const f = root.findings.find((x) => x.code === "PROVIDER_CONSTRAINT_MISSING")!;
    expect([f.severity, f.file, f.line]).toEqual(["warning", "waf.tf", 8]);
    expect(f.message).toContain("the next terraform init installs the newest provider");
    expect(root.provider.basis).toBe("assumed");
    expect(root.provider.target).toEqual(["~> 3.35"]);
  });

  it("an entry with a source and no version pins nothing either: the warning points at that entry", () => {
    const root = fitRoot({ ...rootInput(ROWS.at(-1)!), provider: [{ constraint: "", file: "versions.tf", line: 5, module: "" }] });
    const f = root.findings.filter((x) => x.code === "PROVIDER_CONSTRAINT_MISSING");
    expect(f).toHaveLength(1);
    expect([f[0]!.severity, f[0]!.file, f[0]!.line]).toEqual(["warning", "versions.tf", 5]);
    expect(f[0]!.message).toContain('has no version: the next terraform init installs the newest provider');
    expect(f[0]!.message).toContain('add version = "~> 3.35"');
    expect(root.provider.basis).toBe("assumed");
    // Without legacy resources there is nothing to warn about.
    expect(fitRoot({ ...rootInput(ROWS.at(-1)!), provider: [{ constraint: "", file: "versions.tf", line: 5 }], hasLegacy: false }).findings).toEqual([]);
  });

  it("a constraint in a module is ANDed with the root's, as Terraform intersects them", () => {
    const root = fitRoot({
      ...rootInput(ROWS[0]!),
      provider: [
        { constraint: ">= 3.0", file: "versions.tf", line: 7, module: "" },
        { constraint: "~> 3.30", file: "modules/waf/versions.tf", line: 5, module: "module.waf" },
      ],
    });
    expect(root.provider.combined).toBe(">= 3.0, ~> 3.30");
    expect(admittedReleases(root.provider.target)[0]).toBe("3.30.0");
    expect(fitRulesetToRoots(SETTINGS[2]![1], [root]).missing).toEqual([]);
  });
});

describe("a root pinned past 3.35 while it still holds legacy resources", () => {
  // Renovate bumped the constraint (or the lock) before the migration: no pinned version has the
  // cloudflare_waf_* types, so terraform cannot plan or import there, and steps 1-6 must move to ~> 3.35.
  it.each([
    ["constraint >= 4.0, < 4.20", ">= 4.0, < 4.20", undefined, "versions.tf", 7, '">= 4.0, < 4.20" (versions.tf:7) admits no version up to 3.35.0'],
    ["lock 4.19.0", ">= 4.0, < 4.20", "4.19.0", ".terraform.lock.hcl", 4, "the lock file (.terraform.lock.hcl:4) selects provider 4.19.0"],
    ["constraint ~> 5.0", "~> 5.0", undefined, "versions.tf", 7, '"~> 5.0" (versions.tf:7) admits no version up to 3.35.0'],
  ])("%s: refused where it is pinned, and the ruleset is fitted to ~> 3.35", async (_name, constraint, lock, file, line, where) => {
    const root = fitRoot(rootInput({ name: "", constraint, ...(lock ? { lock } : {}), refused: [], logging: true }));
    expect(root.provider.legacyUnavailable).toBe(true);
    expect(root.provider.target).toEqual(["~> 3.35"]);
    const f = root.findings.filter((x) => x.code === "PROVIDER_FEATURE_MISSING");
    expect(f).toHaveLength(1);
    expect([f[0]!.severity, f[0]!.file, f[0]!.line]).toEqual(["error", file, line]);
    expect(f[0]!.message).toContain(where);
    expect(f[0]!.message).toContain('Set the constraint to "~> 3.35" and run terraform init -upgrade');
    // What is generated loads on every version ~> 3.35 admits.
    const fit = fitRulesetToRoots(SETTINGS[2]![1], [root]);
    const hcl = await emitRulesetHcl({ resourceName: "r", zoneIdExpression: `"${ZONE}"`, ruleset: fit.ruleset, providerMajor: 4 });
    const used = hclConstructs(await parse("ruleset.tf", hcl));
    for (const c of used) for (const v of admittedReleases(["~> 3.35"])) expect(hasConstruct(c, v), `${c} at provider ${v}`).toBe(true);
    // apply refuses before any change.
    expect(importRefusals([root])).toEqual([`.: ${f[0]!.message}, then run apply again`]);
    // Without legacy resources the pin is what it is.
    const plain = fitRoot({ ...rootInput({ name: "", constraint, ...(lock ? { lock } : {}), refused: [], logging: true }), hasLegacy: false });
    expect(plain.provider.legacyUnavailable).toBe(false);
    expect(plain.findings.filter((x) => x.code === "PROVIDER_FEATURE_MISSING")).toEqual([]);
  });
});

describe("import {} blocks and the Terraform version", () => {
  const base = rootInput(ROWS[6]!);
  it.each([
    ["~> 1.3.0", false],
    [">= 1.5", true],
    [">= 1.5.0, < 2.0.0", true],
    [">= 1.2", false],
    ["~> 1.6", true],
  ])("required_version %s: import blocks %s", (constraint, ok) => {
    const tv = terraformVersions({ ...base, terraform: [{ constraint, file: "versions.tf", line: 2 }] });
    expect(tv.importBlocks).toBe(ok);
    if (!ok) expect(tv.reason).toContain("below 1.5");
  });

  it.each([
    [">= 1.5", false],
    [">= 1.5.0, < 2.0.0", false],
    ["~> 1.5.7", false],
    [">= 1.6.0", true],
    ["~> 1.11", true],
  ])("required_version %s: references in an import id (Terraform 1.6+) %s", (constraint, ok) => {
    const tv = terraformVersions({ ...base, terraform: [{ constraint, file: "versions.tf", line: 2 }] });
    expect(tv.importBlocks).toBe(true);
    expect(tv.importIdExpressions).toBe(ok);
    // OpenTofu (1.6.0 on) evaluates them in every release.
    expect(terraformVersions({ ...base, openTofu: true, terraform: [{ constraint: ">= 1.6", file: "versions.tf", line: 2 }] }).importIdExpressions).toBe(true);
  });

  it("no required_version: unknown, so no import blocks, and it says why", () => {
    const tv = terraformVersions({ ...base, terraform: [] });
    expect(tv.importBlocks).toBe(false);
    expect(tv.reason).toContain("no required_version");
  });

  it("OpenTofu counts by its own versions: every release (1.6.0 on) has import blocks", () => {
    const tofu = { ...base, openTofu: true };
    expect(terraformVersions({ ...tofu, terraform: [{ constraint: ">= 1.6", file: "versions.tf", line: 2 }] }).importBlocks).toBe(true);
    expect(terraformVersions({ ...tofu, terraform: [{ constraint: ">= 1.4", file: "versions.tf", line: 2 }] }).importBlocks).toBe(false);
    expect(terraformVersions({ ...tofu, terraform: [{ constraint: ">= 1.4", file: "versions.tf", line: 2 }] }).tool).toBe("opentofu");
  });
});
