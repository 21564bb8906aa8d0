// End-to-end: the settings the migration touches besides the legacy resources (issue 12 §5) and writes that
// never replace what is not a regular file (§6), through the built CLI as a user runs it.
import { execa } from "execa";
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const TERRAFORM = "/usr/local/bin/terraform";

interface Finding {
  code: string;
  severity: string;
  message: string;
  address: string | null;
  file: string | null;
  line: number | null;
  details?: Record<string, unknown>;
}

async function scan(dir: string, ...args: string[]) {
  const r = await runCli(["scan", ".", "--format", "json", ...args], { cwd: dir });
  return { ...r, report: JSON.parse(r.stdout) as { findings: Finding[]; zones: { zoneId: string; stateRemovals: string[]; ruleset: { rules: { action: string; enabled: boolean }[] } }[] } };
}

/** `terraform state list` of a local state file, by the real terraform (works offline, no provider). */
async function stateList(dir: string, stateFile: string): Promise<string[]> {
  const r = await execa(TERRAFORM, ["state", "list", `-state=${stateFile}`], { cwd: dir, env: { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" } });
  return r.stdout.split("\n").filter(Boolean);
}

describe("zone settings override waf = off (testdata/zone-waf-off)", () => {
  const dir = path.join(TESTDATA, "zone-waf-off");
  for (const withState of [true, false]) {
    it(`${withState ? "with state" : "config only"}: execute rules disabled, ZONE_WAF_SETTING on the settings block`, async () => {
      const { report, exitCode } = await scan(dir, ...(withState ? ["--state", "terraform.tfstate"] : []));
      expect(exitCode).toBe(0);
      const rules = report.zones[0]!.ruleset.rules;
      expect(rules.filter((r) => r.action === "execute").map((r) => r.enabled)).toEqual([false, false]);
      const f = report.findings.filter((x) => x.code === "ZONE_WAF_SETTING");
      expect(f).toEqual([expect.objectContaining({ severity: "warning", address: "cloudflare_zone_settings_override.docs", file: "main.tf", line: 22 })]);
    });
  }

  it("plan writes ruleset.tf with enabled = false on the execute rules and says why above it; the gate warns", async () => {
    const work = copyFixture("zone-waf-off");
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", "out", "--format", "json"], { cwd: work });
    expect(r.exitCode).toBe(0);
    const tf = readFileSync(path.join(work, "out/ruleset.tf"), "utf8");
    expect(tf).toMatch(/# TODO: .*previous WAF is off/);
    // Rule-level `enabled` (four spaces in), not the categories' own switches.
    const enabled = [...tf.matchAll(/^ {4}enabled\s*=\s*(true|false)/gm)].map((m) => m[1]);
    expect(enabled).toEqual(["false", "false"]);
    const gate = await runCli(["gate", ".", "--state", "terraform.tfstate", "--format", "json", "--fail-on", "warning"], { cwd: work });
    expect(gate.exitCode).toBe(1);
    expect(JSON.parse(gate.stdout).findings.map((f: Finding) => f.code)).toContain("ZONE_WAF_SETTING");
  });

  it("provider 5 cloudflare_zone_setting with setting_id = \"waf\" is read the same way", async () => {
    const work = tempDir("cfwm-zs5-");
    writeFileSync(
      path.join(work, "main.tf"),
      [
        'resource "cloudflare_waf_package" "owasp" {',
        '  zone_id    = "5b1e4a2c8d9f40b7a6c3e2d1f0a9b8c7"',
        '  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"',
        "}",
        "",
        'resource "cloudflare_zone_setting" "waf" {',
        '  zone_id    = "5b1e4a2c8d9f40b7a6c3e2d1f0a9b8c7"',
        '  setting_id = "waf"',
        '  value      = "off"',
        "}",
        "",
      ].join("\n"),
    );
    const { report } = await scan(work);
    expect(report.zones[0]!.ruleset.rules.filter((r) => r.action === "execute").every((r) => !r.enabled)).toBe(true);
    expect(report.findings.find((f) => f.code === "ZONE_WAF_SETTING")).toMatchObject({ address: "cloudflare_zone_setting.waf", line: 6 });
  });
});

describe("a zone switch set by a variable only a tfvars file (not in the repository) fills", () => {
  // The real-world shape: a module with `count = var.waf_switch == null ? 0 : 1` and `settings { waf = var.waf_switch }`.
  const tree = () => {
    const work = tempDir("cfwm-zs-var-");
    mkdirSync(path.join(work, "modules/edge"), { recursive: true });
    writeFileSync(
      path.join(work, "modules/edge/main.tf"),
      [
        'variable "zone_id" { type = string }',
        'variable "waf_switch" {',
        "  type    = string",
        "  default = null",
        "}",
        "",
        'resource "cloudflare_zone_settings_override" "s" {',
        "  count   = var.waf_switch == null ? 0 : 1",
        "  zone_id = var.zone_id",
        "  settings {",
        "    waf = var.waf_switch",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    writeFileSync(
      path.join(work, "main.tf"),
      [
        'variable "waf_switch" { type = string }',
        "",
        'module "edge" {',
        '  source     = "./modules/edge"',
        '  zone_id    = "5b1e4a2c8d9f40b7a6c3e2d1f0a9b8c7"',
        "  waf_switch = var.waf_switch",
        "}",
        "",
        'resource "cloudflare_waf_package" "owasp" {',
        '  zone_id     = "5b1e4a2c8d9f40b7a6c3e2d1f0a9b8c7"',
        '  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"',
        '  sensitivity = "low"',
        '  action_mode = "block"',
        "}",
        "",
      ].join("\n"),
    );
    return work;
  };

  it("offline it is VALUE_UNRESOLVED at the settings block and the zone is not ready (never taken as on)", async () => {
    const work = tree();
    const r = await runCli(["scan", ".", "--format", "json"], { cwd: work });
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: Finding[]; zones: { unresolved?: { address: string; attribute: string }[] }[] };
    expect(report.zones[0]!.unresolved?.map((u) => [u.address, u.attribute])).toEqual([
      ["module.edge.cloudflare_zone_settings_override.s", "count"],
      ["module.edge.cloudflare_zone_settings_override.s", "settings.waf"],
    ]);
    const unresolved = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED");
    expect(unresolved.map((f) => [f.severity, f.address, f.file, f.line])).toEqual([
      ["warning", "module.edge.cloudflare_zone_settings_override.s", "modules/edge/main.tf", 7],
      ["warning", "module.edge.cloudflare_zone_settings_override.s", "modules/edge/main.tf", 7],
    ]);
    expect(unresolved[1]!.message).toContain("whether the zone's previous WAF is off, and so whether the generated execute rules must be disabled, is not known");
    expect(unresolved[1]!.message).toContain("--var waf_switch=VALUE");
  });

  it("given the value, the zone is ready and the switch decides the execute rules", async () => {
    const work = tree();
    const r = await runCli(["scan", ".", "--format", "json", "--var", "waf_switch=off"], { cwd: work });
    const report = JSON.parse(r.stdout) as { findings: Finding[]; zones: { unresolved?: unknown[]; ruleset: { rules: { action: string; enabled: boolean }[] } }[] };
    expect(report.zones[0]!.unresolved).toBeUndefined();
    expect(report.findings.filter((f) => f.code === "VALUE_UNRESOLVED")).toEqual([]);
    expect(report.zones[0]!.ruleset.rules.filter((x) => x.action === "execute").map((x) => x.enabled)).toEqual([false, false]);
  });
});

describe("a bypass firewall rule over several products (testdata/multi-product-bypass)", () => {
  it("one skip rule per bypass, an info for the other products, and the plan never deletes or un-states the firewall rule", async () => {
    const work = copyFixture("multi-product-bypass");
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", "out", "--format", "json"], { cwd: work });
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: Finding[]; zones: { stateRemovals: string[]; ruleset: { rules: { action: string; description: string }[] } }[]; plan: { steps: { commands: string[] }[] } };
    const info = report.findings.filter((f) => f.code === "FIREWALL_RULE_BYPASS_OTHER_PRODUCTS");
    expect(info).toEqual([expect.objectContaining({ severity: "info", address: "cloudflare_firewall_rule.office", line: 28, details: { otherProducts: ["rateLimit", "uaBlock"] } })]);
    expect(report.zones[0]!.ruleset.rules.filter((x) => x.action === "skip").map((x) => x.description)).toEqual([
      "Bypass WAF, migrated from cloudflare_firewall_rule.office",
      "Bypass WAF, migrated from cloudflare_firewall_rule.webhooks",
    ]);
    // Nothing of the plan touches the firewall rules or their filters: not in state removal, not in the patch.
    expect(report.zones[0]!.stateRemovals).toEqual(["cloudflare_waf_package.owasp"]);
    const commands = report.plan.steps.flatMap((s) => s.commands).join("\n");
    expect(commands).not.toMatch(/cloudflare_(firewall_rule|filter)\./);
    const patch = readFileSync(path.join(work, "out/legacy-removal.patch"), "utf8");
    const removedLines = patch.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---"));
    expect(removedLines.join("\n")).toContain('resource "cloudflare_waf_package" "owasp"');
    expect(removedLines.join("\n")).not.toMatch(/cloudflare_firewall_rule|cloudflare_filter|products/);
    expect(readFileSync(path.join(work, "out/migrate.sh"), "utf8")).not.toMatch(/cloudflare_firewall_rule|cloudflare_filter/);
  });
});

describe("two entry point rulesets for one zone (testdata/duplicate-entry-point)", () => {
  it("DUPLICATE_ENTRY_POINT names both with file and line; the gate fails on it", async () => {
    const dir = path.join(TESTDATA, "duplicate-entry-point");
    const { report } = await scan(dir);
    const dup = report.findings.filter((f) => f.code === "DUPLICATE_ENTRY_POINT");
    expect(dup).toHaveLength(1);
    expect(dup[0]).toMatchObject({ severity: "error", file: "main.tf", line: 16 });
    expect(dup[0]!.message).toContain("cloudflare_ruleset.managed_waf (main.tf:16) and cloudflare_ruleset.owasp (owasp.tf:2)");
    expect(dup[0]!.message).not.toContain("cloudflare_ruleset.custom");
    const gate = await runCli(["gate", ".", "--format", "json"], { cwd: dir });
    expect(gate.exitCode).toBe(1);
  });
});

describe("unreadable input is one line on stderr whatever the format", () => {
  for (const format of ["sarif", "json", "junit", "markdown", "text"]) {
    it(`--format ${format} --output FILE: stdout empty, stderr has file:line:column of each error`, async () => {
      const out = path.join(tempDir(), `report.${format}`);
      const r = await runCli(["scan", path.join(TESTDATA, "broken"), "--format", format, "--output", out]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(3);
      // Named like every report names files: relative to the working directory (the repository root here).
      expect(lines[0]).toBe("cf-waf-migrate: error: testdata/broken/bad.tf.json:4:108: expected ',' or '}' in an object");
      expect(lines[1]).toMatch(/^cf-waf-migrate: error: testdata\/broken\/broken\.tf:5:1: /);
      expect(lines[2]).toMatch(/^cf-waf-migrate: error: testdata\/broken\/bypass\.tf:11:15: /);
      expect(readFileSync(out, "utf8").length).toBeGreaterThan(0);
    });
  }

  it("clean input prints nothing on stderr", async () => {
    const r = await runCli(["scan", path.join(TESTDATA, "multi-product-bypass"), "--format", "sarif", "--output", path.join(tempDir(), "x.sarif")]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
  });
});

describe("--output to what is not a regular file", () => {
  it("a device node (mknod, as root) stays a device; where mknod is refused, a FIFO with a reader", async () => {
    const dir = tempDir("cfwm-dev-");
    const dev = path.join(dir, "null");
    const made = spawnSync("mknod", [dev, "c", "1", "3"]).status === 0;
    if (made) {
      const before = lstatSync(dev);
      const r = await runCli(["scan", path.join(TESTDATA, "zone-waf-off"), "--format", "json", "--output", dev]);
      expect(r.exitCode).toBe(0);
      const after = lstatSync(dev);
      expect(after.isCharacterDevice()).toBe(true);
      expect(after.ino).toBe(before.ino);
      expect(after.rdev).toBe(before.rdev);
    } else {
      spawnSync("mkfifo", [dev]);
      const reader = readAll(dev);
      const r = await runCli(["scan", path.join(TESTDATA, "zone-waf-off"), "--format", "json", "--output", dev]);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(await reader).schemaVersion).toBe(1);
      expect(lstatSync(dev).isFIFO()).toBe(true);
    }
  });

  it("a FIFO with a reader gets the whole report, and stays a FIFO", async () => {
    const dir = tempDir("cfwm-fifo-");
    const fifo = path.join(dir, "report.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const reader = readAll(fifo);
    const r = await runCli(["scan", path.join(TESTDATA, "multi-zone"), "--state", path.join(TESTDATA, "multi-zone/terraform.tfstate"), "--format", "sarif", "--output", fifo]);
    expect(r.exitCode).toBe(0);
    const sarif = JSON.parse(await reader) as { version: string; runs: { results: unknown[] }[] };
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0]!.results.length).toBeGreaterThan(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("a symlinked report file is replaced at its target; the link stays a link", async () => {
    const dir = tempDir("cfwm-link-");
    mkdirSync(path.join(dir, "reports"));
    writeFileSync(path.join(dir, "reports/scan.json"), "old");
    spawnSync("ln", ["-s", "reports/scan.json", path.join(dir, "latest.json")]);
    const r = await runCli(["scan", path.join(TESTDATA, "zone-waf-off"), "--format", "json", "--output", path.join(dir, "latest.json")]);
    expect(r.exitCode).toBe(0);
    expect(lstatSync(path.join(dir, "latest.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, "reports/scan.json"), "utf8")).schemaVersion).toBe(1);
  });
});

function readAll(fifo: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const cat = spawn("cat", [fifo]);
    let out = "";
    cat.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    cat.on("error", reject);
    cat.on("close", () => resolve(out));
  });
}

describe("legacy data sources inside a for_each module: addresses as `terraform state list` prints them", () => {
  const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";
  const OWASP_PKG = "c1b4c0f7e8d94c6f8a1e0a9b5d3c7e2f";

  function tree(): string {
    const dir = tempDir("cfwm-ds-");
    mkdirSync(path.join(dir, "modules/waf"), { recursive: true });
    writeFileSync(
      path.join(dir, "main.tf"),
      ['module "waf" {', '  source   = "./modules/waf"', '  for_each = toset(["shop", "blog"])', `  zone_id  = "${ZONE}"`, "}", ""].join("\n"),
    );
    writeFileSync(
      path.join(dir, "modules/waf/main.tf"),
      [
        'variable "zone_id" {',
        "  type = string",
        "}",
        "",
        'data "cloudflare_waf_packages" "owasp" {',
        "  zone_id = var.zone_id",
        "  filter {",
        '    name = "OWASP.*"',
        "  }",
        "}",
        "",
        'resource "cloudflare_waf_group" "bad_robots" {',
        "  zone_id    = var.zone_id",
        "  package_id = data.cloudflare_waf_packages.owasp.packages[0].id",
        '  group_id   = "b7b5d6a5e0b3d2f7a19b11f1aa1f8a7c"',
        '  mode       = "off"',
        "}",
        "",
      ].join("\n"),
    );
    return dir;
  }

  function writeState(dir: string): void {
    const provider = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
    const resources = ["blog", "shop"].flatMap((key) => [
      {
        module: `module.waf["${key}"]`,
        mode: "data",
        type: "cloudflare_waf_packages",
        name: "owasp",
        provider,
        instances: [{ schema_version: 0, attributes: { id: `pk-${key}`, zone_id: ZONE, filter: [{ name: "OWASP.*", detection_mode: "", action_mode: "", sensitivity: "" }], packages: [{ id: OWASP_PKG, name: "OWASP ModSecurity Core Rule Set", description: "", detection_mode: "anomaly", sensitivity: "high", action_mode: "challenge" }] }, sensitive_attributes: [] }],
      },
      {
        module: `module.waf["${key}"]`,
        mode: "managed",
        type: "cloudflare_waf_group",
        name: "bad_robots",
        provider,
        instances: [{ schema_version: 0, attributes: { id: "b7b5d6a5e0b3d2f7a19b11f1aa1f8a7c", zone_id: ZONE, group_id: "b7b5d6a5e0b3d2f7a19b11f1aa1f8a7c", package_id: OWASP_PKG, mode: "off" }, sensitive_attributes: [] }],
      },
    ]);
    writeFileSync(path.join(dir, "terraform.tfstate"), JSON.stringify({ version: 4, terraform_version: "1.5.7", serial: 3, lineage: "5d1f0e2c-7a3b-4c8d-9e0f-1a2b3c4d5e6f", outputs: {}, resources, check_results: null }, null, 2));
  }

  it("with state: every data source and resource address is one that real `terraform state list` prints, and PLAN.md counts what step 5 removes", async () => {
    const dir = tree();
    writeState(dir);
    const listed = await stateList(dir, "terraform.tfstate");
    expect(listed).toContain('module.waf["shop"].data.cloudflare_waf_packages.owasp');

    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", "out", "--format", "json"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: Finding[]; plan: { steps: { number: number; commands: string[] }[] } };
    const dsAddresses = report.findings.filter((f) => f.code === "LEGACY_WAF_DATA_SOURCE").map((f) => f.address);
    expect(dsAddresses.sort()).toEqual(listed.filter((a) => a.includes(".data.")).sort());

    // Step 5's command removes exactly the legacy instances terraform lists, and PLAN.md says that count.
    const rm = report.plan.steps.find((s) => s.number === 5)!.commands.find((c) => /^terraform state rm '/.test(c))!;
    const removed = [...rm.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(removed.sort()).toEqual([...listed].sort());
    const md = readFileSync(path.join(dir, "out/PLAN.md"), "utf8");
    expect(md).toContain(`Step 5 removes ${removed.length} addresses from state:`);
    expect(md.match(/Step 5 removes \d+/g)).toHaveLength(1);

    // The group's package is OWASP (the data source read an anomaly package): a core rule set override.
    const codes = report.findings.map((f) => f.code);
    expect(codes).toContain("CRS_OVERRIDE_NOT_MIGRATED");
    expect(codes).not.toContain("MANAGED_OVERRIDE_UNMAPPED");
  });

  it("config only: no address is claimed for a data source whose module keys only state knows; the group is still OWASP", async () => {
    const dir = tree();
    // The module's keys come from a root variable nobody sets: only state knows the instances.
    writeFileSync(
      path.join(dir, "main.tf"),
      ['variable "zones" {', "  type = set(string)", "}", "", 'module "waf" {', '  source   = "./modules/waf"', "  for_each = var.zones", `  zone_id  = "${ZONE}"`, "}", ""].join("\n"),
    );
    const { report } = await scan(dir);
    const ds = report.findings.find((f) => f.code === "LEGACY_WAF_DATA_SOURCE")!;
    expect(ds.address).toBeNull();
    expect(ds.details).toMatchObject({ configAddress: "module.waf.data.cloudflare_waf_packages.owasp", instancesUnknown: true });
    expect(ds.message).toMatch(/instance addresses need the state/);
    expect(ds).toMatchObject({ file: "modules/waf/main.tf", line: 5 });
    const codes = report.findings.map((f) => f.code);
    expect(codes).toContain("CRS_OVERRIDE_NOT_MIGRATED");
    expect(codes).not.toContain("MANAGED_OVERRIDE_UNMAPPED");

    // Given the keys (--var), the instances are known offline: addressed as `terraform state list` prints them.
    const given = await scan(dir, "--var", 'zones=["shop", "blog"]');
    const addresses = given.report.findings.filter((f) => f.code === "LEGACY_WAF_DATA_SOURCE").map((f) => f.address);
    expect(addresses.sort()).toEqual(['module.waf["blog"].data.cloudflare_waf_packages.owasp', 'module.waf["shop"].data.cloudflare_waf_packages.owasp']);
  });
});
