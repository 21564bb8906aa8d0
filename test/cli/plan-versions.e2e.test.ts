// End-to-end: `plan --out-dir` on a root that pins old versions (issue 21's reproduction and its variants).
// The rendered ruleset.tf is parsed back and every construct in it checked against the feature table for
// every provider version the root may run; refusals, the plan's first step, imports.tf and the report.
import { parse } from "@cdktn/hcl2json";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { admittedReleases, hasConstruct } from "../../src/core/ruleset-features.js";
import { hclConstructs } from "../core/hcl-constructs.js";
import { runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

interface Variant {
  provider: string | null;
  terraform?: string | null;
  lock?: string;
}

/** A copy of testdata/pinned-low with its versions.tf (and lock file) rewritten. */
function root(v: Variant): string {
  const dir = copyFixture("pinned-low");
  const tf = v.terraform === undefined ? "~> 1.3.0" : v.terraform;
  const lines = ["terraform {"];
  if (tf !== null) lines.push(`  required_version = "${tf}"`, "");
  if (v.provider !== null) {
    lines.push("  required_providers {", "    cloudflare = {", '      source  = "cloudflare/cloudflare"', `      version = "${v.provider}"`, "    }", "  }");
  }
  lines.push("}", "", 'provider "cloudflare" {}', "");
  writeFileSync(path.join(dir, "versions.tf"), lines.join("\n"));
  if (v.lock) {
    writeFileSync(
      path.join(dir, ".terraform.lock.hcl"),
      `# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n\nprovider "registry.terraform.io/cloudflare/cloudflare" {\n  version     = "${v.lock}"\n  constraints = "${v.provider ?? ""}"\n  hashes = [\n    "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",\n  ]\n}\n`,
    );
  }
  return dir;
}

async function plan(dir: string) {
  const out = tempDir();
  rmSync(out, { recursive: true });
  const r = await runCli(["plan", ".", "--out-dir", out, "--format", "json"], { cwd: dir });
  const report = JSON.parse(r.stdout);
  const read = (f: string) => readFileSync(path.join(out, f), "utf8");
  return { r, report, out, read };
}

type F = { code: string; message: string; file: string | null; line: number | null; severity: string };

describe("plan fits what it writes to the versions the root pins", () => {
  it("issue 21: ~> 3.4.0 and Terraform ~> 1.3.0 — refused at the constraint's line, no imports.tf, nothing the pinned provider rejects", async () => {
    const { r, report, out, read } = await plan(root({ provider: "~> 3.4.0" }));
    expect(r.exitCode).toBe(0);
    const refused: F[] = report.findings.filter((f: F) => f.code === "PROVIDER_FEATURE_MISSING");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ severity: "error", file: "versions.tf", line: 7 });
    expect(refused[0]!.message).toContain("needs provider 3.29.0 or later for importing an existing cloudflare_ruleset");
    expect(refused[0]!.message).toContain('"~> 3.4.0" (versions.tf:7) admits provider 3.4.0');
    // The plan starts by raising the constraint.
    const md = read("PLAN.md");
    expect(md).toContain("**First: raise the constraint to ~> 3.35 and run terraform init -upgrade");
    expect(report.plan.steps[0].commands[0]).toBe("terraform init -upgrade");
    expect(report.plan.steps[0].notes[0]).toMatch(/^raise the constraint to ~> 3\.35 and run terraform init -upgrade/);
    // Terraform 1.3 has no import {} blocks: terraform import, and the plan says why.
    expect(existsSync(path.join(out, "imports.tf"))).toBe(false);
    expect(report.plan.steps[3].commands[0]).toMatch(/^terraform import 'cloudflare_ruleset\./);
    expect(report.plan.steps[3].notes.join("\n")).toContain('required_version "~> 1.3.0" admits Terraform versions below 1.5');
    // ruleset.tf is written for the version the first step installs (3.35), and says so.
    const tf = read("ruleset.tf");
    expect(tf.split("\n")[0]).toContain("Written for provider ~> 3.35");
    const used = hclConstructs(await parse("ruleset.tf", tf));
    for (const c of used) expect(hasConstruct(c, "3.35.0"), c).toBe(true);
    // The report carries the versions.
    expect(report.versions[0].provider).toMatchObject({ combined: "~> 3.4.0", lock: null, basis: "constraints" });
    expect(report.versions[0].terraform).toMatchObject({ combined: "~> 1.3.0", importBlocks: false, tool: "terraform" });
    expect(report.versions[0].missing).toEqual([{ construct: "import", minimumVersion: "3.29.0" }]);
    expect(md).toContain("## Versions");
    expect(md).toContain("`~> 3.4.0` (`versions.tf:7`)");
  });

  it.each([
    { provider: "~> 3.35", lock: undefined, logging: true },
    { provider: ">= 3.30, < 3.35", lock: undefined, logging: true },
    { provider: ">= 3.0", lock: "3.32.0", logging: true },
  ])("$provider (lock $lock): every construct of ruleset.tf exists in every version steps 1-6 may run", async ({ provider, lock, logging }) => {
    const { report, read } = await plan(root({ provider, lock, terraform: ">= 1.5" }));
    expect(report.findings.filter((f: F) => f.code === "PROVIDER_FEATURE_MISSING")).toEqual([]);
    const used = hclConstructs(await parse("ruleset.tf", read("ruleset.tf")));
    const versions = admittedReleases(lock ? `= ${lock}` : [provider, "<= 3.35.0"]);
    for (const c of used) for (const v of versions) expect(hasConstruct(c, v), `${c} at ${v}`).toBe(true);
    expect(used.includes("rules.logging")).toBe(logging);
    expect(read("imports.tf")).toContain("import {");
  });

  it("lock 3.20.0 under >= 3.0: the lock decides; refused at the lock file's line", async () => {
    const { report, read } = await plan(root({ provider: ">= 3.0", lock: "3.20.0", terraform: ">= 1.5" }));
    const f: F = report.findings.find((x: F) => x.code === "PROVIDER_FEATURE_MISSING");
    expect(f).toMatchObject({ file: ".terraform.lock.hcl", line: 4 });
    expect(f.message).toContain("the lock file (.terraform.lock.hcl:4) selects provider 3.20.0");
    expect(report.versions[0].provider.stepsTarget).toEqual(["= 3.20.0"]);
    expect(read("PLAN.md")).toContain("3.20.0 (locked in .terraform.lock.hcl:4)");
  });

  it("~> 3.30.0 keeps skip-rule logging; ~> 3.12 is refused for the import and ruleset.tf is written for 3.35, logging included", async () => {
    const { report, read } = await plan(root({ provider: "~> 3.30.0", terraform: ">= 1.5" }));
    expect(report.findings.filter((f: F) => f.code === "PROVIDER_FEATURE_MISSING")).toEqual([]);
    expect(read("ruleset.tf")).toContain("logging {");
    const old = await plan(root({ provider: "~> 3.12", terraform: ">= 1.5" }));
    // ~> 3.12 admits 3.12.0, which has neither the import nor logging: the plan raises to 3.35 first, so
    // ruleset.tf keeps logging and nothing is reported as left out.
    expect(old.report.findings.some((f: F) => f.code === "RULESET_CONSTRUCT_OMITTED")).toBe(false);
    expect(old.report.findings.some((f: F) => f.code === "PROVIDER_FEATURE_MISSING")).toBe(true);
    expect(old.read("ruleset.tf")).toContain("logging {");
  });

  it("pinned past 3.35 while legacy resources remain (>= 4.0, < 4.20; lock 4.19.0; ~> 5.0): refused, moved to ~> 3.35 first, ruleset.tf and its import in 3.35's form", async () => {
    for (const v of [{ provider: ">= 4.0, < 4.20" }, { provider: ">= 4.0, < 4.20", lock: "4.19.0" }, { provider: "~> 5.0" }]) {
      const { r, report, read } = await plan(root({ ...v, terraform: ">= 1.5" }));
      expect(r.exitCode).toBe(0);
      const refused: F[] = report.findings.filter((f: F) => f.code === "PROVIDER_FEATURE_MISSING");
      expect(refused, JSON.stringify(v)).toHaveLength(1);
      expect(refused[0]).toMatchObject({ severity: "error", ...(v.lock ? { file: ".terraform.lock.hcl", line: 4 } : { file: "versions.tf", line: 7 }) });
      expect(refused[0]!.message).toContain("exist only up to provider 3.35.0");
      expect(report.versions[0].provider.stepsTarget).toEqual(["~> 3.35"]);
      // The pin goes down, not up: PLAN.md, step 0 and ruleset.tf say "lower" and never "raise".
      const md = read("PLAN.md");
      expect(md).toContain("**First: lower the constraint to ~> 3.35 (back from a provider after 3.35.0) and run terraform init -upgrade");
      expect(md).toContain('blocks for provider "~> 3.35" (lower the constraint first)');
      expect(md).not.toMatch(/raise the constraint/i);
      expect(report.plan.steps[0].notes[0]).toMatch(/^lower the constraint to ~> 3\.35 .*after 3\.35\.0 and no longer has the legacy resources/);
      const tf = read("ruleset.tf");
      expect(tf.split("\n")[1]).toContain("# lower the constraint to ~> 3.35");
      expect(tf.split("\n")[0]).toContain("Written for provider ~> 3.35");
      // Block syntax and the zone/ import id, which 3.35 reads (not provider 5's, whatever the pin says).
      expect(tf).toContain("\n  rules {\n");
      expect(read("imports.tf")).toContain('id = "zone/0da42c8d2132a9ddaf714f9e7c920711/');
      const used = hclConstructs(await parse("ruleset.tf", tf));
      for (const c of used) for (const ver of admittedReleases(["~> 3.35"])) expect(hasConstruct(c, ver), `${c} at provider ${ver}`).toBe(true);
    }
  });

  it("no cloudflare entry in required_providers: a warning at the terraform block, never an unrelated line", async () => {
    const { report } = await plan(root({ provider: null, terraform: ">= 1.5" }));
    const w: F = report.findings.find((f: F) => f.code === "PROVIDER_CONSTRAINT_MISSING");
    expect(w).toMatchObject({ severity: "warning", file: "versions.tf", line: 1 });
    expect(w.message).toContain("the next terraform init installs the newest provider");
    expect(report.versions[0].provider.basis).toBe("assumed");
  });

  it("no terraform block at all: the warning points at the first legacy resource", async () => {
    const dir = root({ provider: null });
    rmSync(path.join(dir, "versions.tf"));
    const { report } = await plan(dir);
    const w: F = report.findings.find((f: F) => f.code === "PROVIDER_CONSTRAINT_MISSING");
    expect(w).toMatchObject({ file: "waf.tf", line: 8 });
    expect(report.findings.find((f: F) => f.code === "IMPORT_BLOCKS_UNAVAILABLE").message).toContain("no required_version");
  });

  it("Terraform ~> 1.3.0 gives no imports.tf, >= 1.5 gives it", async () => {
    const old = await plan(root({ provider: "~> 3.35", terraform: "~> 1.3.0" }));
    expect(existsSync(path.join(old.out, "imports.tf"))).toBe(false);
    expect(old.report.findings.find((f: F) => f.code === "IMPORT_BLOCKS_UNAVAILABLE")).toMatchObject({ file: "versions.tf", line: 2 });
    const now = await plan(root({ provider: "~> 3.35", terraform: ">= 1.5" }));
    expect(now.read("imports.tf")).toContain("import {");
    expect(now.report.findings.some((f: F) => f.code === "IMPORT_BLOCKS_UNAVAILABLE")).toBe(false);
  });
});

describe("remediation text names only values we know", () => {
  it("an unresolved zone expression never appears in a command as if it were the zone id", async () => {
    const dir = root({ provider: "~> 3.35", terraform: ">= 1.5" });
    // The zone id comes from a resource that only state can resolve.
    const waf = readFileSync(path.join(dir, "waf.tf"), "utf8").replace(/default = "0da42c8d2132a9ddaf714f9e7c920711"/, "");
    writeFileSync(
      path.join(dir, "waf.tf"),
      waf.replace(/var\.zone_id/g, "cloudflare_zone.shop.id") + '\nresource "cloudflare_zone" "shop" {\n  account_id = "f037e56e89293a057740de681ac9abbe"\n  zone       = "shop.example.com"\n}\n',
    );
    const { report, read } = await plan(dir);
    const commands: string[] = report.plan.steps.flatMap((s: { commands: string[] }) => s.commands);
    for (const c of commands) {
      expect(c).not.toMatch(/--zone cloudflare_zone/);
      expect(c).not.toContain("${cloudflare_zone");
    }
    const unknown: F & { details: { command: string } } = report.findings.find((f: F) => f.code === "RULESET_ID_UNKNOWN");
    expect(unknown.message).toContain("cf-waf-migrate api entrypoint --zone <ZONE_ID>");
    // The reference is resolved (the zone is known), only its id is not: no "unknown expression" wording.
    expect(unknown.message).toContain("the zone is cloudflare_zone.shop, whose id only state knows");
    expect(unknown.message).not.toContain("expression `cloudflare_zone.shop.id`");
    expect(read("ruleset.tf")).toContain("zone_id     = cloudflare_zone.shop.id");
    expect(unknown.message).toContain("--state");
    expect(unknown.details.command).toBe("cf-waf-migrate api entrypoint --zone <ZONE_ID>");
    expect(commands).toContain("terraform import 'cloudflare_ruleset.waf_managed_shop_example_com' 'zone/<ZONE_ID>/<RULESET_ID>'");
    expect(read("migrate.sh")).not.toContain("${cloudflare_zone");
  });
});
