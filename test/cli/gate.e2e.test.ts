// End-to-end: the built binary as a CI job runs it — exit codes, and SARIF that validates against 2.1.0.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { makeSarifValidator } from "../render/sarif-validator.js";
import { tempDir } from "../support/workdir.js";

describe("cf-waf-migrate gate (built binary)", () => {
  it("a provider constraint that admits 4.x with legacy resources fails the gate; its SARIF validates", async () => {
    const r = await runCli(["gate", path.join(TESTDATA, "provider-upgrade"), "--format", "sarif"]);
    expect(r.exitCode).toBe(1);
    const sarif = JSON.parse(r.stdout);
    const validate = makeSarifValidator();
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    const blocked = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === "PROVIDER_UPGRADE_BLOCKED");
    expect(blocked.level).toBe("error");
    expect(blocked.locations[0].physicalLocation.region.startLine).toBeGreaterThan(0);
    expect(blocked.locations[0].physicalLocation.artifactLocation.uri).toMatch(/^testdata\/provider-upgrade\/.+\.tf$/);
  });

  it("writes SARIF, JUnit and JSON from one run, text to stdout", async () => {
    const out = tempDir();
    const r = await runCli([
      "gate", path.join(TESTDATA, "multi-zone"), "--state", path.join(TESTDATA, "multi-zone/terraform.tfstate"), "--target-provider", "4.52.8",
      "--format", "text", "--format", `sarif=${out}/g.sarif`, "--format", `junit=${out}/g.xml`, "--format", `json=${out}/g.json`,
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/GATE FAILED: .*PROVIDER_UPGRADE_BLOCKED/);
    expect(makeSarifValidator()(JSON.parse(readFileSync(`${out}/g.sarif`, "utf8")))).toBe(true);
    expect(readFileSync(`${out}/g.xml`, "utf8")).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<testsuites/);
    expect(JSON.parse(readFileSync(`${out}/g.json`, "utf8")).findings.some((f: { code: string }) => f.code === "PROVIDER_UPGRADE_BLOCKED")).toBe(true);
  });

  it("an already migrated tree passes; ~> 3.30 with a 3.35 target does not block", async () => {
    const ok = await runCli(["gate", path.join(TESTDATA, "already-migrated"), "--format", "json"]);
    expect(ok.exitCode).toBe(0);
    const pinned = await runCli(["gate", path.join(TESTDATA, "multi-zone"), "--target-provider", "3.35.0", "--format", "json", "--fail-on", "error"]);
    const report = JSON.parse(pinned.stdout);
    expect(report.findings.some((f: { code: string }) => f.code === "PROVIDER_UPGRADE_BLOCKED")).toBe(false);
  });
});

describe("gate on a root without a terraform block", () => {
  it("PROVIDER_UPGRADE_BLOCKED points at the legacy resource, not at the first resource by type (a cloudflare_ruleset)", async () => {
    const r = await runCli(["gate", "testdata/gate-no-terraform-block", "--format", "json"]);
    expect(r.exitCode).toBe(1);
    const blocked = JSON.parse(r.stdout).findings.find((f: { code: string }) => f.code === "PROVIDER_UPGRADE_BLOCKED");
    expect([blocked.file, blocked.line]).toEqual(["main.tf", 14]);
  });
});
