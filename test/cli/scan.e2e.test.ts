// End-to-end: the built binary on the fixture trees, as a user or a CI job runs it.
import { mkdtempSync, readFileSync, writeFileSync, symlinkSync, mkdirSync, cpSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeReport, runCli, TESTDATA } from "../support/cli.js";
import { copyFixture } from "../support/workdir.js";
import { expectGoldenJson } from "../support/golden.js";

const MZ = path.join(TESTDATA, "multi-zone");
const STATE = path.join(MZ, "terraform.tfstate");

describe("cf-waf-migrate scan (multi-zone example)", () => {
  it("prints the JSON report of the contract (golden)", async () => {
    const r = await runCli(["scan", MZ, "--state", STATE, "--format", "json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expectGoldenJson(path.join(MZ, "expected/scan.json"), normalizeReport(r.stdout));
  });

  it("JSON report: instance addresses, zones, compatibility, removals", async () => {
    const r = await runCli(["scan", ".", "--state", "terraform.tfstate", "--format", "json"], { cwd: MZ });
    const report = JSON.parse(r.stdout);
    expect(report.schemaVersion).toBe(1);
    expect(report.tool.name).toBe("cf-waf-migrate");
    expect(report.errors).toEqual([]);
    const shop = report.zones.find((z: { zoneId: string }) => z.zoneId === "0da42c8d2132a9ddaf714f9e7c920711");
    expect(shop).toMatchObject({ plan: "business", compatible: false, migrationMode: "pending" });
    expect(shop.stateRemovals).toContain('module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]');
    expect(shop.imports).toEqual([{ to: "cloudflare_ruleset.waf_managed_shop_example_com", id: "zone/0da42c8d2132a9ddaf714f9e7c920711/<RULESET_ID>" }]);
    const blog = report.zones.find((z: { zoneId: string }) => z.zoneId === "9a7806061c88ada191ed06f989cc3dac");
    expect(blog).toMatchObject({ plan: "enterprise", compatible: true, migrationMode: "validation" });
    // Skip rules come before execute rules.
    const actions = shop.ruleset.rules.map((x: { action: string }) => x.action);
    expect(actions.lastIndexOf("skip")).toBeLessThan(actions.indexOf("execute"));
    const codes = report.findings.map((f: { code: string }) => f.code);
    for (const c of ["URI_WAF_OVERRIDE", "LEGACY_WAF_RESOURCE", "FIREWALL_RULE_BYPASS_WAF", "PAGE_RULE_DISABLE_SECURITY", "PAGE_RULE_WAF_SETTING", "CRS_OVERRIDE_NOT_MIGRATED", "MANAGED_OVERRIDE_UNMAPPED", "VALIDATION_MODE_UNAVAILABLE", "RULESET_ID_UNKNOWN", "STATE_CONFIG_DRIFT"]) {
      expect(codes).toContain(c);
    }
    // Every finding carries a file and a line (SARIF needs them).
    for (const f of report.findings) expect([f.code, typeof f.file, typeof f.line]).toEqual([f.code, "string", "number"]);
  });

  it("prints a text report grouped by zone, without colour when not a terminal", async () => {
    const r = await runCli(["scan", MZ, "--state", STATE, "--format", "text"], { env: { NO_COLOR: undefined } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^cf-waf-migrate scan: 2 zones, /);
    expect(r.stdout).toContain("Zone 0da42c8d2132a9ddaf714f9e7c920711 (shop.example.com)");
    // Files relative to the working directory, as in every report (the repository root here).
    expect(r.stdout).toContain("URI_WAF_OVERRIDE  testdata/multi-zone/modules/uri-overrides/main.tf:5");
    expect(r.stdout).not.toContain("\u001b[");
  });

  it("colours only when forced, and never with NO_COLOR", async () => {
    const forced = await runCli(["scan", MZ, "--format", "text"], { env: { FORCE_COLOR: "1", NO_COLOR: undefined } });
    expect(forced.stdout).toContain("\u001b[");
    const off = await runCli(["scan", MZ, "--format", "text"], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(off.stdout).not.toContain("\u001b[");
  });

  it("defaults to JSON when stdout is not a terminal", async () => {
    const r = await runCli(["scan", MZ]);
    expect(JSON.parse(r.stdout).schemaVersion).toBe(1);
  });

  it.each([
    ["never", 0],
    ["error", 1],
    ["warning", 1],
    ["info", 1],
  ])("--fail-on %s exits %d", async (level, code) => {
    const r = await runCli(["scan", MZ, "--state", STATE, "--format", "json", "--fail-on", level]);
    expect(r.exitCode).toBe(code);
  });

  it("reads state from standard input and writes the report to --output", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-"));
    const out = path.join(dir, "report.json");
    const r = await runCli(["scan", MZ, "--state", "-", "--format", "json", "--output", out], { input: readFileSync(STATE) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report.resources.filter((x: { inState: boolean }) => x.inState).length).toBeGreaterThan(20);
  });

  it("reads terraform show -json output as state", async () => {
    const state = JSON.parse(readFileSync(STATE, "utf8"));
    const show = {
      format_version: "1.0",
      terraform_version: "1.11.0",
      values: {
        root_module: {
          resources: state.resources
            .filter((r: { module?: string }) => !r.module)
            .flatMap((r: { mode: string; type: string; name: string; instances: { index_key?: string | number; attributes: unknown }[] }) =>
              r.instances.map((i) => ({
                address: `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}${i.index_key === undefined ? "" : typeof i.index_key === "number" ? `[${i.index_key}]` : `["${i.index_key}"]`}`,
                mode: r.mode,
                type: r.type,
                name: r.name,
                values: i.attributes,
              })),
            ),
        },
      },
    };
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-"));
    writeFileSync(path.join(dir, "show.json"), JSON.stringify(show));
    const r = await runCli(["scan", MZ, "--state", path.join(dir, "show.json"), "--format", "json"]);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toEqual([]);
    expect(report.resources.find((x: { address: string }) => x.address === "cloudflare_firewall_rule.partners[1]")).toMatchObject({ inState: true, inConfig: true });
  });
});

describe("bad input gets a clear answer, never a crash", () => {
  it("a malformed .tf, .tf.json and an unknown function: errors with file, line, column; the rest is scanned; exit 2", async () => {
    const r = await runCli(["scan", path.join(TESTDATA, "broken"), "--format", "json"]);
    expect(r.exitCode).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toEqual([
      { file: "bad.tf.json", line: 4, column: 108, message: "expected ',' or '}' in an object" },
      { file: "broken.tf", line: 5, column: 1, message: expect.stringMatching(/^Invalid expression/) },
      // Pointed at the value, as terraform does: `products  = set("waf")` on line 11.
      { file: "bypass.tf", line: 11, column: 15, message: expect.stringMatching(/no function named "set"/) },
    ]);
    // Also on stderr, one line each with file:line:column, whatever the format.
    expect(r.stderr.trim().split("\n")).toEqual([
      "cf-waf-migrate: error: testdata/broken/bad.tf.json:4:108: expected ',' or '}' in an object",
      expect.stringMatching(/^cf-waf-migrate: error: testdata\/broken\/broken\.tf:5:1: Invalid expression/),
      expect.stringMatching(/^cf-waf-migrate: error: testdata\/broken\/bypass\.tf:11:15: cloudflare_firewall_rule\.ops: products: .*no function named "set"/),
    ]);
    expect(report.resources.map((x: { address: string }) => x.address)).toContain("cloudflare_waf_package.owasp");
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it.each([
    ["truncated", '{"version": 4, "resources": [{"mode": "managed"', /truncated/],
    ["not JSON", "this is not json", /not valid JSON/],
    ["version 3", '{"version": 3, "serial": 1, "modules": []}', /state version 3 is not supported/],
  ])("a %s state: one line naming the file, exit 2", async (_name, content, message) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-"));
    const file = path.join(dir, "bad.tfstate");
    writeFileSync(file, content);
    const r = await runCli(["scan", MZ, "--state", file, "--format", "text"]);
    expect(r.exitCode).toBe(2);
    const line = r.stdout.split("\n").find((l) => l.includes("bad.tfstate"));
    expect(line).toMatch(message);
    // The same error, once, on stderr (a CI log shows it whatever the format and --output).
    const errLines = r.stderr.trim().split("\n");
    expect(errLines).toHaveLength(1);
    expect(errLines[0]).toMatch(/^cf-waf-migrate: error: \S*bad\.tfstate(:\d+(:\d+)?)?: /);
    expect(errLines[0]).toMatch(message);
  });

  it("a missing path and a missing state file", async () => {
    const r = await runCli(["scan", "does/not/exist", "--state", "nope.tfstate", "--format", "json"]);
    expect(r.exitCode).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toEqual([
      { file: "does/not/exist", line: null, column: null, message: "cannot read: no such file or directory" },
      // The state is the default workspace's own input: that instance fails, not every one of the root.
      { file: "nope.tfstate", line: null, column: null, message: "cannot read: no such file or directory", root: ".", workspace: "default" },
    ]);
  });

  it("a symlink loop is reported, not followed forever", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-"));
    mkdirSync(path.join(dir, "a"));
    cpSync(path.join(TESTDATA, "broken/good.tf"), path.join(dir, "a/good.tf"));
    symlinkSync(path.join(dir, "a"), path.join(dir, "a/loop"));
    const r = await runCli(["scan", dir, "--format", "json"]);
    expect(r.exitCode).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.errors[0].message).toMatch(/symlink loop/);
    expect(report.resources).toHaveLength(1);
  });

  it("a non-UTF-8 file names the line of the bad byte", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-"));
    writeFileSync(path.join(dir, "latin1.tf"), Buffer.concat([Buffer.from('# ok\n# caf'), Buffer.from([0xe9]), Buffer.from("\n")]));
    cpSync(path.join(TESTDATA, "broken/good.tf"), path.join(dir, "good.tf"));
    const r = await runCli(["scan", dir, "--format", "json"]);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).errors).toEqual([{ file: "latin1.tf", line: 2, column: 6, message: "file is not valid UTF-8" }]);
  });

  it("bad usage exits 2 with one line on stderr", async () => {
    const r = await runCli(["scan", MZ, "--fail-on", "sometimes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^cf-waf-migrate: /);
    const r2 = await runCli(["scan", MZ, "--zone-plan", "abc"]);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr).toMatch(/--zone-plan expects ZONE_ID=VALUE/);
  });
});

describe("a zone named by its domain (provider 1.x/2.x `zone = \"example.com\"`), config only", () => {
  it("joins the zone resource with that name: one zone, one ruleset, one import by the resource's reference", async () => {
    const r = await runCli(["scan", path.join(TESTDATA, "zone-by-domain"), "--format", "json"]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.zones.map((z: { zoneId: string }) => z.zoneId)).toEqual(["cloudflare_zone.example.id"]);
    const zone = report.zones[0];
    expect(zone.zoneName).toBe("example.com");
    expect(zone.imports).toEqual([{ to: "cloudflare_ruleset.waf_managed_example_com", id: "zone/${cloudflare_zone.example.id}/<RULESET_ID>" }]);
    expect(zone.stateRemovals).toEqual(["cloudflare_waf_package.owasp", "cloudflare_waf_rule.xss"]);
    // One entry point per zone: never a second ruleset with the default settings beside the package's.
    expect(report.findings.filter((f: { code: string }) => f.code === "RULESET_ID_UNKNOWN")).toHaveLength(1);
  });
});

describe("a zone named only by its domain (no cloudflare_zone), config only", () => {
  it("the import and the hints use <ZONE_ID> and say the domain is known, not that `example.com` is an expression", async () => {
    const r = await runCli(["scan", path.join(TESTDATA, "zone-by-domain-only"), "--format", "json"]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.zones.map((z: { zoneId: string }) => z.zoneId)).toEqual(["example.com"]);
    // `${example.com}` is no template Terraform can evaluate: the id is a placeholder to fill in.
    expect(report.zones[0].imports).toEqual([{ to: "cloudflare_ruleset.waf_managed_example_com", id: "zone/<ZONE_ID>/<RULESET_ID>" }]);
    const hint = report.findings.find((f: { code: string }) => f.code === "RULESET_ID_UNKNOWN");
    expect(hint.message).toContain("the zone is named example.com");
    expect(hint.message).toContain("GET /zones?name=example.com");
    expect(hint.message).not.toContain("expression");
    expect(hint.message).not.toContain("--var-file");
  });
});

describe("zones looked up at the root by a data source (name = …, filter { name = … }, cloudflare_zones)", () => {
  it("the hints say a data source reads the id (no --var sets it: state or the API), and the root's HCL uses the lookup as written", async () => {
    const dir = path.join(TESTDATA, "zone-lookup-root");
    const r = await runCli(["scan", dir, "--format", "json"]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.zones.map((z: { zoneId: string }) => z.zoneId)).toEqual([
      "data.cloudflare_zone.blog.zone_id",
      "data.cloudflare_zone.this.id",
      "data.cloudflare_zones.shop.zones[0].id",
    ]);
    const of = (code: string, zoneId: string) => report.findings.find((f: { code: string; zoneId: string }) => f.code === code && f.zoneId === zoneId);
    for (const zoneId of ["data.cloudflare_zone.this.id", "data.cloudflare_zone.blog.zone_id", "data.cloudflare_zones.shop.zones[0].id"]) {
      const hint = of("RULESET_ID_UNKNOWN", zoneId).message as string;
      expect(hint).toContain(`the zone id is looked up by ${zoneId.replace(/\.(?:id|zone_id|zones\[0\]\.id)$/, "")} (\`${zoneId}\`) when terraform plans`);
      expect(hint).toContain("no --var-file/--var sets it");
      expect(hint).toContain("--state");
      expect(hint).not.toContain("set what it depends on");
      const unknown = of("VALUE_UNRESOLVED", zoneId).message as string;
      expect(unknown).toContain("is read from the provider when terraform plans");
      expect(unknown).toContain("no --var-file/--var sets what a data source reads: pass --state");
      expect(unknown).not.toContain("supply it with --var-file");
    }

    const out = mkdtempSync(path.join(os.tmpdir(), "zone-lookup-"));
    const plan = await runCli(["plan", copyFixture("zone-lookup-root"), "--out-dir", out, "--format", "json"]);
    expect(plan.exitCode).toBe(0);
    // required_version >= 1.6: the import id evaluates the lookup; the ruleset reads the zone id the same way.
    expect(readFileSync(path.join(out, "imports.tf"), "utf8")).toContain('id = "zone/${data.cloudflare_zone.this.id}/<RULESET_ID>"');
    const ruleset = readFileSync(path.join(out, "ruleset.tf"), "utf8");
    expect(ruleset).toContain("zone_id     = data.cloudflare_zone.this.id\n");
    expect(ruleset).toContain("zone_id     = data.cloudflare_zones.shop.zones[0].id\n");
    expect(ruleset).not.toContain("<ZONE_ID>");
  });
});

describe("a removed block with destroy = false (the plan's removed.tf) before it is applied", () => {
  it("the resource it forgets is no STATE_CONFIG_DRIFT ('would reset … do not apply'); one without a removed block still is", async () => {
    const dir = path.join(TESTDATA, "removed-forgets");
    const r = await runCli(["scan", dir, "--state", path.join(dir, "terraform.tfstate"), "--format", "json"]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    const drift = report.findings.filter((f: { code: string }) => f.code === "STATE_CONFIG_DRIFT").map((f: { address: string }) => f.address);
    expect(drift).toEqual(["cloudflare_waf_rule.sqli"]);
    // Still a legacy resource to take out of state: the removal list is unchanged.
    expect(report.zones[0].stateRemovals).toEqual(["cloudflare_waf_package.owasp", "cloudflare_waf_rule.sqli"]);
  });
});
