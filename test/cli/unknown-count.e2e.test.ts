// A block whose own count/for_each is not known offline (`count = var.enabled ? 1 : 0`, the variable set per
// pipeline, in no file) may configure nothing at all. Whether it does is a value the migration needs, so it
// is VALUE_UNRESOLVED at the block, and nothing of it is taken as given: the core rule set settings of a
// package that may not exist leave the OWASP rule disabled with a TODO, a bypass rule that may not exist
// gives a disabled skip rule. With the values given, the same tree migrates with its settings.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ROOT = "testdata/values-unknown-count/live/prod";

interface Finding {
  code: string;
  severity: string;
  address: string | null;
  details?: { attribute?: string; expression?: string; possibleBypass?: boolean };
}
interface Rule {
  description: string;
  enabled: boolean;
  action_parameters?: { overrides?: unknown };
}
interface Report {
  findings: Finding[];
  zones: { ruleset: { rules: Rule[] }; ruleTodos?: Record<string, string[]>; phase1: { reasons: string[] }; unresolved?: { address: string; attribute: string }[] }[];
}

async function scan(args: string[] = []): Promise<Report> {
  const r = await runCli(["scan", ROOT, "--format", "json", "--quiet", ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

const rule = (z: Report["zones"][number], description: RegExp) => z.ruleset.rules.find((r) => description.test(r.description))!;

describe("a block whose count is not known offline", () => {
  it("is VALUE_UNRESOLVED at its count, and neither the package's settings nor the bypass are taken as given", async () => {
    const report = await scan();
    const unresolved = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED").map((f) => [f.address, f.details?.attribute, f.severity, f.details?.possibleBypass ?? false]);
    expect(unresolved).toEqual([
      ["module.waf.cloudflare_waf_package.owasp", "count", "warning", false],
      ["module.waf.cloudflare_firewall_rule.monitoring", "count", "warning", true],
    ]);
    const z = report.zones[0]!;
    expect(z.unresolved?.map((u) => `${u.address} ${u.attribute}`)).toEqual(["module.waf.cloudflare_waf_package.owasp count", "module.waf.cloudflare_firewall_rule.monitoring count"]);
    const owasp = rule(z, /OWASP/);
    expect(owasp.enabled).toBe(false);
    expect(owasp.action_parameters?.overrides).toBeUndefined();
    expect(rule(z, /^Bypass WAF/).enabled).toBe(false);
    expect(z.phase1.reasons).toContain("whether module.waf.cloudflare_waf_package.owasp has any instance is not known offline (its count)");
  });

  it("writes the TODO into ruleset.tf where the settings would go, and the gate counts it", async () => {
    const out = tempDir("cfwm-unknown-count-");
    const r = await runCli(["plan", ROOT, "--out-dir", out, "--force", "--format", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const hcl = readFileSync(path.join(out, "ruleset.tf"), "utf8");
    expect(hcl).toContain("# TODO: VALUE_UNRESOLVED module.waf.cloudflare_waf_package.owasp: count = var.enabled ? 1 : 0 is not known offline (var.waf_enabled has no value offline");
    expect(hcl).toContain("# TODO: VALUE_UNRESOLVED module.waf.cloudflare_firewall_rule.monitoring: count = var.allow_monitoring ? 1 : 0 is not known offline");
    const gate = await runCli(["gate", ROOT, "--format", "text", "--fail-on", "warning"]);
    expect(gate.exitCode).toBe(1);
  });

  it("with the values given, each instance is known and migrates with its settings", async () => {
    const report = await scan(["--var", "waf_enabled=true", "--var", "allow_monitoring=true"]);
    expect(report.findings.filter((f) => f.code === "VALUE_UNRESOLVED")).toEqual([]);
    const z = report.zones[0]!;
    expect(z.unresolved).toBeUndefined();
    expect(rule(z, /OWASP/).enabled).toBe(true);
    expect(rule(z, /OWASP/).action_parameters?.overrides).toBeDefined();
    expect(rule(z, /^Bypass WAF/).enabled).toBe(true);
  });

  it("an enclosing module call's count not known offline is the same unknown, named by the module", async () => {
    const dir = tempDir("cfwm-module-count-");
    mkdirSync(path.join(dir, "modules", "waf"), { recursive: true });
    mkdirSync(path.join(dir, "live"));
    writeFileSync(
      path.join(dir, "modules", "waf", "main.tf"),
      'variable "zone_id" {\n  type = string\n}\n\nresource "cloudflare_waf_package" "owasp" {\n  zone_id     = var.zone_id\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "low"\n  action_mode = "simulate"\n}\n',
    );
    writeFileSync(
      path.join(dir, "live", "main.tf"),
      'variable "waf_enabled" {\n  type = bool\n}\n\nmodule "waf" {\n  source  = "../modules/waf"\n  count   = var.waf_enabled ? 1 : 0\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n}\n',
    );
    const r = await runCli(["scan", "live", "--format", "json", "--quiet"], { cwd: dir });
    const report = JSON.parse(r.stdout) as Report;
    const count = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED" && f.details?.attribute === "count");
    expect(count.map((f) => [f.address, f.severity, f.details?.expression])).toEqual([["module.waf.cloudflare_waf_package.owasp", "warning", "var.waf_enabled ? 1 : 0"]]);
    expect(rule(report.zones[0]!, /OWASP/).enabled).toBe(false);
    const given = JSON.parse((await runCli(["scan", "live", "--var", "waf_enabled=true", "--format", "json", "--quiet"], { cwd: dir })).stdout) as Report;
    expect(given.findings.filter((f) => f.code === "VALUE_UNRESOLVED" && f.severity === "warning")).toEqual([]);
    expect(rule(given.zones[0]!, /OWASP/).enabled).toBe(true);
  });
});

// testdata/values-staging-override: a URI-based override in staging only (`count =
// local.staging_only[var.environment]`), the environment's tfvars passed by the pipeline, not auto-loaded.
// (Regression: the override's count was not read at all: with no values it was a definite URI_WAF_OVERRIDE
// and no VALUE_UNRESOLVED said why.)
describe("a URI-based WAF override whose count is not known offline", () => {
  const STAGING = "testdata/values-staging-override";
  interface ZoneCompat {
    compatible: boolean;
    unresolved?: { address: string; attribute: string }[];
  }
  const scanOf = async (args: string[]) => {
    const r = await runCli(["scan", STAGING, "--format", "json", "--quiet", ...args]);
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { findings: (Finding & { message: string })[]; zones: ZoneCompat[] };
  };

  it("is VALUE_UNRESOLVED at its count, and still blocks the zone (URI_WAF_OVERRIDE says it may not exist); the gate fails", async () => {
    const report = await scanOf([]);
    const count = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED");
    expect(count.map((f) => [f.address, f.details?.attribute, f.severity])).toEqual([["cloudflare_waf_override.staging_api", "count", "warning"]]);
    expect(count[0]!.message).toContain("so whether it blocks the zone's migration is not known; it is counted as if it did (URI_WAF_OVERRIDE)");
    expect(count[0]!.message).toContain("--var environment=VALUE");
    const uri = report.findings.filter((f) => f.code === "URI_WAF_OVERRIDE");
    expect(uri.map((f) => [f.address, f.severity])).toEqual([["cloudflare_waf_override.staging_api", "error"]]);
    expect(uri[0]!.message).toContain("whose count is not known offline: wherever it has an instance, the zone cannot migrate until it is deleted");
    expect(report.zones[0]!.compatible).toBe(false);
    expect(report.zones[0]!.unresolved?.map((u) => `${u.address} ${u.attribute}`)).toEqual(["cloudflare_waf_override.staging_api count"]);
    expect((await runCli(["gate", STAGING, "--format", "text"])).exitCode).toBe(1);
  });

  it("with each environment's tfvars: staging has the override (the zone is blocked), production has none", async () => {
    const staging = await scanOf(["--var-file", `${STAGING}/env/staging.tfvars`]);
    expect(staging.findings.filter((f) => f.code === "VALUE_UNRESOLVED")).toEqual([]);
    const uri = staging.findings.filter((f) => f.code === "URI_WAF_OVERRIDE");
    expect(uri.map((f) => f.address)).toEqual(["cloudflare_waf_override.staging_api[0]"]);
    expect(uri[0]!.message).not.toContain("not known offline");
    expect(staging.zones[0]!.compatible).toBe(false);
    const production = await scanOf(["--var-file", `${STAGING}/env/production.tfvars`]);
    expect(production.findings.filter((f) => f.code === "URI_WAF_OVERRIDE" || f.code === "VALUE_UNRESOLVED")).toEqual([]);
    expect(production.zones[0]!.compatible).toBe(true);
    expect((await runCli(["gate", STAGING, "--var-file", `${STAGING}/env/production.tfvars`, "--format", "text"])).exitCode).toBe(0);
  });
});
