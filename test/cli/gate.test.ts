// `cf-waf-migrate gate`, run through yargs in-process (the command is wired into main.ts separately):
// exit codes per severity and --fail-on, the provider-upgrade finding on the fixtures, the text verdict.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import yargs from "yargs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gateCommand, parseTargetProvider } from "../../src/cli/commands/gate.js";
import { gateTextTail } from "../../src/render/gate-verdict.js";
import { CliError, EXIT_INPUT } from "../../src/cli/errors.js";
import type { Finding, Report } from "../../src/core/model.js";

const TESTDATA = fileURLToPath(new URL("../../testdata", import.meta.url));
const MZ = path.join(TESTDATA, "multi-zone");
const UPGRADE = path.join(TESTDATA, "provider-upgrade");
const MIGRATED = path.join(TESTDATA, "already-migrated");
const BYPASS = path.join(TESTDATA, "hand-migrated-bypass");

interface GateRun {
  stdout: string;
  exitCode: number;
  /** Set when the command failed with a usage error (as main.ts reports it: one line, exit 2). */
  usageError: string | null;
}

/** Runs `gate ARGS…` the way main.ts does (yargs, CliError → exit 2), capturing stdout and the exit code. */
async function runGate(args: string[]): Promise<GateRun> {
  let stdout = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  });
  const env = { NO_COLOR: process.env.NO_COLOR };
  process.env.NO_COLOR = "1";
  let usageError: string | null = null;
  let exitCode: number;
  try {
    await yargs()
      .exitProcess(false)
      .strict()
      .fail((msg, err) => {
        if (err) throw err;
        throw new CliError(msg);
      })
      .command(gateCommand)
      .parseAsync(["gate", ...args]);
    exitCode = typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    usageError = e.message;
    exitCode = e.exitCode;
  } finally {
    spy.mockRestore();
    process.exitCode = undefined;
    if (env.NO_COLOR === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = env.NO_COLOR;
  }
  return { stdout, exitCode, usageError };
}

async function gateJson(args: string[]): Promise<{ report: Report; exitCode: number }> {
  const r = await runGate([...args, "--format", "json"]);
  expect(r.usageError).toBeNull();
  return { report: JSON.parse(r.stdout) as Report, exitCode: r.exitCode };
}

const blockedOf = (report: Report): Finding[] => report.findings.filter((f) => f.code === "PROVIDER_UPGRADE_BLOCKED");

/** A temporary stack whose only finding is informational (a remote module that is not followed). */
function infoOnlyStack(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-gate-"));
  writeFileSync(
    path.join(dir, "main.tf"),
    `terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.52"
    }
  }
}

module "dns" {
  source  = "git::https://example.com/infra/dns.git?ref=v1.2.0"
  zone_id = "7c5b3a1f9e8d7c6b5a4f3e2d1c0b9a8f"
}
`,
  );
  return dir;
}

afterEach(() => {
  process.exitCode = undefined;
});

describe("gate exit codes by the highest severity and --fail-on", () => {
  const cases: [string, () => string, Record<"error" | "warning" | "info" | "never", number>][] = [
    ["error (provider upgrade blocked)", () => UPGRADE, { error: 1, warning: 1, info: 1, never: 0 }],
    ["warning (hand-migrated bypass)", () => BYPASS, { error: 0, warning: 1, info: 1, never: 0 }],
    ["info (remote module only)", infoOnlyStack, { error: 0, warning: 0, info: 1, never: 0 }],
    ["nothing (already migrated)", () => MIGRATED, { error: 0, warning: 0, info: 0, never: 0 }],
  ];
  for (const [name, dir, expected] of cases) {
    it(`highest severity ${name}`, async () => {
      const d = dir();
      for (const level of ["error", "warning", "info", "never"] as const) {
        const r = await runGate([d, "--format", "json", "--fail-on", level]);
        expect([level, r.exitCode]).toEqual([level, expected[level]]);
      }
      // --fail-on defaults to error.
      expect((await runGate([d, "--format", "json"])).exitCode).toBe(expected.error);
    });
  }
});

describe("gate: the provider upgrade", () => {
  it("testdata/provider-upgrade (>= 3.0, legacy in a module) fails without --target-provider", async () => {
    const { report, exitCode } = await gateJson([UPGRADE]);
    expect(exitCode).toBe(1);
    expect(report.errors).toEqual([]);
    const blocked = blockedOf(report);
    expect(blocked).toHaveLength(1);
    const f = blocked[0]!;
    expect(f).toMatchObject({ severity: "error", zoneId: null, file: "main.tf", line: 8 });
    expect(f.details?.addresses).toEqual(["module.waf.cloudflare_waf_group.honey_pot", "module.waf.cloudflare_waf_package.owasp"]);
    expect(f.message).toContain('">= 3.0"');
    expect(f.message).toContain("module.waf.cloudflare_waf_group.honey_pot");
    expect(f.message).toContain("module.waf.cloudflare_waf_package.owasp");
    // The only error-level finding is the provider one.
    expect(report.findings.filter((x) => x.severity === "error").map((x) => x.code)).toEqual(["PROVIDER_UPGRADE_BLOCKED"]);
  });

  it("multi-zone (~> 3.30, lock 3.35.0): not blocked by itself; --target-provider 4.52.8 blocks, 3.35.0 does not", async () => {
    const state = path.join(MZ, "terraform.tfstate");
    const plain = await gateJson([MZ, "--state", state]);
    expect(blockedOf(plain.report)).toEqual([]);
    // URI-based overrides are errors of their own: the gate fails either way.
    expect(plain.exitCode).toBe(1);

    const up = await gateJson([MZ, "--state", state, "--target-provider", "4.52.8"]);
    const blocked = blockedOf(up.report);
    expect(blocked).toHaveLength(1);
    expect(blocked[0]).toMatchObject({ file: "main.tf", line: 4, zoneId: null });
    expect(blocked[0]!.message).toContain("4.52.8");
    const addresses = blocked[0]!.details?.addresses as string[];
    // Every legacy instance state knows is listed, in module and key form.
    const legacyInReport = up.report.resources.filter((r) => /^cloudflare_waf_(package|group|rule|override)$/.test(r.type)).map((r) => r.address);
    expect(legacyInReport.length).toBeGreaterThan(3);
    for (const a of legacyInReport) expect(addresses).toContain(a);
    expect(addresses).toContain('module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]');

    const same = await gateJson([MZ, "--state", state, "--target-provider", "3.35.0"]);
    expect(blockedOf(same.report)).toEqual([]);
  });

  it("already-migrated: passes, even towards provider 5", async () => {
    const r = await runGate([MIGRATED, "--format", "text", "--target-provider", "5.8.0"]);
    expect(r.exitCode).toBe(0);
    const last = r.stdout.trimEnd().split("\n").at(-1);
    expect(last).toBe("gate passed: no findings");
    expect(r.stdout).toContain("no legacy WAF resources remain");
  });

  it("hand-migrated-bypass: RULESET_INVALID_ACTION is a warning; the gate passes unless asked about 4.x", async () => {
    const { report, exitCode } = await gateJson([BYPASS]);
    expect(exitCode).toBe(0);
    expect(report.findings.map((f) => f.code)).toContain("RULESET_INVALID_ACTION");
    expect(blockedOf(report)).toEqual([]);
    const up = await gateJson([BYPASS, "--target-provider", "4.0.0"]);
    expect(up.exitCode).toBe(1);
    expect(blockedOf(up.report)[0]).toMatchObject({ file: "main.tf", line: 5, details: { addresses: ["cloudflare_waf_package.owasp"] } });
  });
});

describe("gate: several root configurations", () => {
  function twoRoots(): { dir: string; state: string } {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-gate-roots-"));
    const write = (name: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    };
    const versions = (c: string) => `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${c}"\n    }\n  }\n}\n`;
    const zone = "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b";
    write("envs/prod/versions.tf", versions("~> 4.52"));
    write("envs/prod/main.tf", `resource "cloudflare_ruleset" "waf" {\n  zone_id = "${zone}"\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_managed"\n}\n`);
    write("envs/stage/versions.tf", versions("~> 3.30"));
    write("envs/stage/main.tf", `resource "cloudflare_zone" "stage" {\n  zone = "stage.example.com"\n}\n\nresource "cloudflare_waf_package" "owasp" {\n  zone_id    = "${zone}"\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n}\n`);
    const instance = (type: string, name: string, attributes: Record<string, unknown>) => ({
      mode: "managed",
      type,
      name,
      provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
      instances: [{ schema_version: 0, attributes, sensitive_attributes: [] }],
    });
    // The stage stack's state: it shares cloudflare_zone.stage and cloudflare_waf_package.owasp with
    // envs/stage, and holds a legacy group whose block is gone.
    const state = path.join(dir, "stage.tfstate");
    writeFileSync(
      state,
      JSON.stringify({
        version: 4,
        terraform_version: "1.5.7",
        serial: 1,
        lineage: "x",
        outputs: {},
        resources: [
          instance("cloudflare_zone", "stage", { id: zone, zone: "stage.example.com" }),
          instance("cloudflare_waf_package", "owasp", { id: "a25a", zone_id: zone, package_id: "a25a9a7e9c00afc1fb2e0245519d725b" }),
          instance("cloudflare_waf_group", "gone", { id: "de67", zone_id: zone, group_id: "de677e5818985db1285d0e80225f06e5", mode: "off" }),
        ],
      }),
    );
    return { dir, state };
  }

  it("decides per root: the state-only legacy resource belongs to the root the state is given to", async () => {
    const { dir, state } = twoRoots();
    // The state lies outside both roots: which one it belongs to must be said (ROOT=FILE).
    const unowned = await gateJson([dir, "--state", state]);
    expect(unowned.exitCode).toBe(2);
    expect(unowned.report.errors[0]!.message).toContain("say which root it belongs to with --state ROOT=");
    const stateArg = `${path.join(dir, "envs/stage")}=${state}`;
    const plain = await gateJson([dir, "--state", stateArg]);
    expect(plain.report.errors).toEqual([]);
    expect(blockedOf(plain.report)).toEqual([]);
    expect(plain.exitCode).toBe(0);

    const up = await gateJson([dir, "--state", stateArg, "--target-provider", "4.52.8"]);
    const blocked = blockedOf(up.report);
    expect(blocked).toHaveLength(1);
    expect(blocked[0]).toMatchObject({ file: "envs/stage/versions.tf", line: 3, details: { root: "envs/stage", addresses: ["cloudflare_waf_group.gone", "cloudflare_waf_package.owasp"] } });
    expect(up.exitCode).toBe(1);
  });
});

describe("gate: text output and usage", () => {
  it("ends with GATE FAILED and lists the blocking findings", async () => {
    const r = await runGate([UPGRADE, "--format", "text"]);
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("GATE FAILED: 1 finding at or above --fail-on error (PROVIDER_UPGRADE_BLOCKED)");
    expect(r.stdout).toMatch(/^cf-waf-migrate gate: /);
    expect(r.stdout).toContain("Blocking findings (1, --fail-on error)");
    expect(r.stdout).toContain("ERROR   PROVIDER_UPGRADE_BLOCKED  testdata/provider-upgrade/main.tf:8");
    expect(r.stdout).toContain("provider upgrade blocked: 2 legacy WAF resources remain");
  });

  it("--fail-on never reports but passes", async () => {
    const r = await runGate([UPGRADE, "--format", "text", "--fail-on", "never"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(/^gate passed: --fail-on never \(\d+ findings reported\)$/);
  });

  it("writes several formats at once (text to a file keeps the verdict)", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-gate-out-"));
    const txt = path.join(dir, "gate.txt");
    const json = path.join(dir, "gate.json");
    const r = await runGate([UPGRADE, "--format", `text=${txt}`, "--format", `json=${json}`]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(readFileSync(txt, "utf8").trimEnd().split("\n").at(-1)).toMatch(/^GATE FAILED: /);
    expect(blockedOf(JSON.parse(readFileSync(json, "utf8")) as Report)).toHaveLength(1);
  });

  it.each(["latest", "", "4.x", "v"])("rejects --target-provider %j (exit 2)", async (v) => {
    const r = await runGate([MIGRATED, "--format", "json", "--target-provider", v]);
    expect(r.exitCode).toBe(EXIT_INPUT);
    expect(r.usageError).toContain("--target-provider");
    expect(r.stdout).toBe("");
  });

  it("normalises --target-provider", () => {
    expect(parseTargetProvider("4.52")).toBe("4.52.0");
    expect(parseTargetProvider("v5")).toBe("5.0.0");
    expect(parseTargetProvider(undefined)).toBeUndefined();
  });

  it("an invalid version constraint is an input error (exit 2), the report still written", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-gate-bad-"));
    writeFileSync(
      path.join(dir, "versions.tf"),
      `terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "=> 3.0"
    }
  }
}
`,
    );
    writeFileSync(path.join(dir, "waf.tf"), `resource "cloudflare_waf_package" "p" {\n  zone_id    = "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b"\n  package_id = "x"\n}\n`);
    const { report, exitCode } = await gateJson([dir]);
    expect(exitCode).toBe(EXIT_INPUT);
    expect(report.errors).toEqual([{ file: "versions.tf", line: 5, column: null, message: expect.stringContaining('did you mean ">="?') }]);
    expect(report.findings.map((f) => f.code)).toContain("LEGACY_WAF_RESOURCE");
    const text = await runGate([dir, "--format", "text"]);
    expect(text.stdout.trimEnd().split("\n").at(-1)).toMatch(/^GATE FAILED: 1 input could not be read or parsed/);
  });

  it("gateTextTail: the verdict is the last line", () => {
    const report: Report = { schemaVersion: 1, tool: { name: "cf-waf-migrate", version: "0" }, resources: [], zones: [], findings: [], errors: [] };
    expect(gateTextTail(report, "error", ["no legacy WAF resources remain"]).trimEnd().split("\n").at(-1)).toBe("gate passed: no findings");
  });
});
