import { describe, expect, it } from "vitest";
import type { Finding, Report } from "../../src/core/model.js";
import { buildRunSummary } from "../../src/estate/run-summary.js";

const f = (code: string, severity: Finding["severity"], root: string, workspace = "default") =>
  ({ code, severity, message: code, zoneId: null, address: null, file: `${root}/main.tf`, line: 1, root, workspace }) as Finding;

function report(): Report & { roots: { path: string; workspace: string; states: string[] }[] } {
  return {
    schemaVersion: 1,
    tool: { name: "cf-waf-migrate", version: "0.1.0" },
    root: ".",
    roots: [
      { path: "live/prod", workspace: "default", states: [] },
      { path: "live/staging", workspace: "eu", states: [] },
      { path: "live/staging", workspace: "us", states: [] },
      { path: "live/staging-old", workspace: "default", states: [] },
    ],
    resources: [],
    zones: [],
    findings: [f("PROVIDER_UPGRADE_BLOCKED", "error", "live/prod"), f("LEGACY_WAF_RESOURCE", "warning", "live/prod"), f("LEGACY_WAF_RESOURCE", "warning", "live/staging", "eu")],
    errors: [{ file: "live/staging-old/main.tf", line: 3, column: 1, message: "Unclosed configuration block" }],
  };
}

const times = { started: new Date("2026-11-25T01:00:00Z"), ended: new Date("2026-11-25T01:00:05Z") };

describe("--summary-file", () => {
  it("gives each instance Terragrunt's Name/Started/Ended/Result/Reason/Cause, plus its workspace", () => {
    const entries = buildRunSummary({ report: report(), failOn: "error", ...times, excluded: [{ path: "live/dev", shard: { index: 2, count: 3 } }], shard: { index: 1, count: 3 } });
    expect(entries).toEqual([
      {
        Name: "live/prod",
        Workspace: "default",
        Started: "2026-11-25T01:00:00.000Z",
        Ended: "2026-11-25T01:00:05.000Z",
        Result: "failed",
        Reason: "gate failed",
        Cause: "1 finding at or above --fail-on error: PROVIDER_UPGRADE_BLOCKED",
        Findings: { error: 1, warning: 1, info: 0 },
      },
      { Name: "live/staging", Workspace: "eu", Started: "2026-11-25T01:00:00.000Z", Ended: "2026-11-25T01:00:05.000Z", Result: "succeeded", Findings: { error: 0, warning: 1, info: 0 } },
      { Name: "live/staging", Workspace: "us", Started: "2026-11-25T01:00:00.000Z", Ended: "2026-11-25T01:00:05.000Z", Result: "succeeded", Findings: { error: 0, warning: 0, info: 0 } },
      {
        Name: "live/staging-old",
        Workspace: "default",
        Started: "2026-11-25T01:00:00.000Z",
        Ended: "2026-11-25T01:00:05.000Z",
        Result: "failed",
        Reason: "run error",
        Cause: "live/staging-old/main.tf:3: Unclosed configuration block",
        Findings: { error: 0, warning: 0, info: 0 },
      },
      {
        Name: "live/dev",
        Workspace: null,
        Started: "2026-11-25T01:00:00.000Z",
        Ended: "2026-11-25T01:00:05.000Z",
        Result: "excluded",
        Reason: "shard",
        Cause: "scanned by shard 2/3 (this run is shard 1/3)",
      },
    ]);
  });

  it("follows --fail-on, and fails every instance for an input no root holds (a shared module)", () => {
    expect(buildRunSummary({ report: report(), failOn: "never", ...times }).map((e) => e.Result)).toEqual(["succeeded", "succeeded", "succeeded", "failed"]);
    expect(buildRunSummary({ report: report(), failOn: "warning", ...times }).map((e) => e.Result)).toEqual(["failed", "failed", "succeeded", "failed"]);
    const r = report();
    r.errors = [{ file: "modules/waf/main.tf", line: 9, column: 2, message: "Invalid expression" }];
    const entries = buildRunSummary({ report: r, failOn: "never", ...times });
    expect(entries.every((e) => e.Result === "failed" && e.Reason === "run error" && e.Cause === "modules/waf/main.tf:9: Invalid expression")).toBe(true);
  });
});

describe("--summary-file order", () => {
  it("lists roots in the reports' order (comparePaths), not by string comparison: live/a/b before live/a-b, . first", () => {
    const r = report();
    r.roots = [
      { path: "live/a-b", workspace: "default", states: [] },
      { path: "live/a/b", workspace: "us", states: [] },
      { path: "live/a/b", workspace: "default", states: [] },
      { path: ".", workspace: "default", states: [] },
      { path: "-x", workspace: "default", states: [] },
    ];
    r.findings = [];
    r.errors = [];
    const entries = buildRunSummary({ report: r, failOn: "error", ...times });
    expect(entries.map((e) => `${e.Name}:${e.Workspace}`)).toEqual([".:default", "-x:default", "live/a/b:default", "live/a/b:us", "live/a-b:default"]);
  });
});
