// End-to-end: `gate` reports what `plan` would refuse or warn about for the versions a root pins (issue 21),
// so CI fails before anyone runs the plan: PROVIDER_FEATURE_MISSING (error), PROVIDER_CONSTRAINT_MISSING
// (warning), IMPORT_BLOCKS_UNAVAILABLE (info), at the same file:line as plan's.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture } from "../support/workdir.js";

type F = { code: string; message: string; file: string | null; line: number | null; severity: string };

/** testdata/pinned-low with its versions.tf (and lock file) rewritten. */
function root(provider: string | null, terraform: string | null, lock?: string): string {
  const dir = copyFixture("pinned-low");
  const lines = ["terraform {"];
  if (terraform !== null) lines.push(`  required_version = "${terraform}"`, "");
  if (provider !== null) lines.push("  required_providers {", "    cloudflare = {", '      source  = "cloudflare/cloudflare"', `      version = "${provider}"`, "    }", "  }");
  lines.push("}", "", 'provider "cloudflare" {}', "");
  writeFileSync(path.join(dir, "versions.tf"), lines.join("\n"));
  if (lock) {
    writeFileSync(
      path.join(dir, ".terraform.lock.hcl"),
      `# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n\nprovider "registry.terraform.io/cloudflare/cloudflare" {\n  version     = "${lock}"\n  constraints = "${provider ?? ""}"\n  hashes = [\n    "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",\n  ]\n}\n`,
    );
  }
  return dir;
}

async function gate(dir: string, ...extra: string[]) {
  const r = await runCli(["gate", ".", "--format", "json", ...extra], { cwd: dir });
  const findings = (JSON.parse(r.stdout) as { findings: F[] }).findings;
  const only = (code: string) => findings.filter((f) => f.code === code);
  return { r, findings, only };
}

describe("gate reports the version findings", () => {
  it("issue 21's root (~> 3.4.0, Terraform ~> 1.3.0): PROVIDER_FEATURE_MISSING at the constraint fails the gate; the text names it", async () => {
    const dir = root("~> 3.4.0", "~> 1.3.0");
    const { r, only } = await gate(dir);
    expect(r.exitCode).toBe(1);
    const [missing] = only("PROVIDER_FEATURE_MISSING");
    expect(missing).toMatchObject({ severity: "error", file: "versions.tf", line: 7 });
    expect(missing!.message).toContain("needs provider 3.29.0 or later for importing an existing cloudflare_ruleset");
    expect(missing!.message).toContain("raise the constraint to ~> 3.35 and run terraform init -upgrade");
    expect(only("IMPORT_BLOCKS_UNAVAILABLE")).toMatchObject([{ severity: "info", file: "versions.tf", line: 2 }]);
    const text = await runCli(["gate", ".", "--format", "text"], { cwd: dir });
    expect(text.stdout).toMatch(/GATE FAILED: 1 finding at or above --fail-on error \(PROVIDER_FEATURE_MISSING\)/);
  });

  it("a lock at 3.20.0 under >= 3.0: refused at the lock file's line", async () => {
    const { r, only } = await gate(root(">= 3.0", ">= 1.5", "3.20.0"));
    expect(r.exitCode).toBe(1);
    expect(only("PROVIDER_FEATURE_MISSING")).toMatchObject([{ file: ".terraform.lock.hcl", line: 4 }]);
    expect(only("PROVIDER_FEATURE_MISSING")[0]!.message).toContain("the lock file (.terraform.lock.hcl:4) selects provider 3.20.0");
  });

  it("~> 3.35 and Terraform >= 1.5: no version findings, the gate passes", async () => {
    const { r, findings } = await gate(root("~> 3.35", ">= 1.5"));
    expect(findings.filter((f) => /^(PROVIDER_FEATURE_MISSING|PROVIDER_CONSTRAINT_MISSING|IMPORT_BLOCKS_UNAVAILABLE|RULESET_CONSTRUCT_OMITTED)$/.test(f.code))).toEqual([]);
    expect(r.exitCode).toBe(0);
  });

  it("no cloudflare entry in required_providers: the version warning at the terraform block, next to the upgrade the gate already blocks", async () => {
    const { r, only } = await gate(root(null, ">= 1.5"));
    expect(r.exitCode).toBe(1);
    expect(only("PROVIDER_CONSTRAINT_MISSING")).toMatchObject([{ severity: "warning", file: "versions.tf", line: 1 }]);
    expect(only("PROVIDER_CONSTRAINT_MISSING")[0]!.message).toContain("the next terraform init installs the newest provider");
    expect(only("PROVIDER_UPGRADE_BLOCKED")).toHaveLength(1);
  });

  // One cause, one finding: a pin or lock already past 3.35 while legacy resources remain is the migration's
  // precondition failing (PROVIDER_FEATURE_MISSING, lower the constraint); before, the gate also reported
  // PROVIDER_UPGRADE_BLOCKED at the same line for the same cause.
  it("pinned or locked past 3.35 with legacy resources (~> 4.20; >= 3.0 locked at 4.19.0; with --target-provider): only PROVIDER_FEATURE_MISSING, carrying the legacy addresses", async () => {
    for (const [dir, extra] of [
      [root("~> 4.20", ">= 1.5"), []],
      [root(">= 3.0", ">= 1.5", "4.19.0"), []],
      [root("~> 4.20", ">= 1.5"), ["--target-provider", "4.52.8"]],
    ] as [string, string[]][]) {
      const { r, only } = await gate(dir, ...extra);
      expect(r.exitCode).toBe(1);
      expect(only("PROVIDER_UPGRADE_BLOCKED"), dir).toEqual([]);
      const missing = only("PROVIDER_FEATURE_MISSING");
      expect(missing).toHaveLength(1);
      expect(missing[0]!.message).toContain("exist only up to provider 3.35.0");
      expect((missing[0] as F & { details: { addresses: string[] } }).details.addresses.length).toBeGreaterThan(0);
    }
  });

  it("a constraint that still admits 3.35 but also 4.x (>= 3.30), or a --target-provider 4.x under ~> 3.35: PROVIDER_UPGRADE_BLOCKED alone", async () => {
    for (const [dir, extra] of [
      [root(">= 3.30", ">= 1.5"), []],
      [root("~> 3.35", ">= 1.5"), ["--target-provider", "4.52.8"]],
    ] as [string, string[]][]) {
      const { r, only } = await gate(dir, ...extra);
      expect(r.exitCode).toBe(1);
      expect(only("PROVIDER_UPGRADE_BLOCKED")).toHaveLength(1);
      expect(only("PROVIDER_FEATURE_MISSING")).toEqual([]);
    }
  });

  it("no terraform block at all: the warning at the first legacy resource, import blocks unavailable (version unknown)", async () => {
    const dir = root(null, null);
    rmSync(path.join(dir, "versions.tf"));
    const { only } = await gate(dir);
    expect(only("PROVIDER_CONSTRAINT_MISSING")).toMatchObject([{ file: "waf.tf", line: 8 }]);
    expect(only("IMPORT_BLOCKS_UNAVAILABLE")[0]!.message).toContain("no required_version");
  });
});
