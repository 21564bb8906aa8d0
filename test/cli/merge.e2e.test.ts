// `cf-waf-migrate merge` from the built CLI: a real scan report joined back, every format rendered, the
// exit code as the scan's, and refusals as one line with exit 2.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";

let dir: string;
let whole: string;
const FIXTURE = path.join(TESTDATA, "multi-zone");
const scanArgs = [FIXTURE, "--state", path.join(FIXTURE, "terraform.tfstate"), "--quiet"];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-merge-"));
  whole = path.join(dir, "whole.json");
  const r = await runCli(["scan", ...scanArgs, "--format", `json=${whole}`]);
  expect(r.exitCode).toBe(0);
}, 60_000);

describe("merge (built CLI)", () => {
  it("gives back the report it was given, in JSON and SARIF as scan renders them", async () => {
    const json = await runCli(["merge", whole, "--format", "json", "--fail-on", "never"]);
    expect(json.exitCode).toBe(0);
    expect(json.stdout).toBe(readFileSync(whole, "utf8").trimEnd());
    const [mergedSarif, scanSarif] = await Promise.all([
      runCli(["merge", whole, "--format", "sarif", "--fail-on", "never"]),
      runCli(["scan", ...scanArgs, "--format", "sarif"]),
    ]);
    expect(mergedSarif.stdout).toBe(scanSarif.stdout);
  }, 60_000);

  it("renders text, markdown, junit and html, and exits as the scan would for the same --fail-on", async () => {
    const out = (f: string) => path.join(dir, `merged.${f}`);
    const all = await runCli(["merge", whole, "--fail-on", "never", ...["text", "markdown", "junit", "html"].flatMap((f) => ["--format", `${f}=${out(f)}`])]);
    expect(all.exitCode).toBe(0);
    expect(readFileSync(out("text"), "utf8")).toMatch(/^cf-waf-migrate merge: \d+ zones?/);
    expect(readFileSync(out("markdown"), "utf8")).toContain("cf-waf-migrate");
    expect(readFileSync(out("junit"), "utf8")).toMatch(/^<\?xml[^>]*>\s*<testsuites/);
    expect(readFileSync(out("html"), "utf8")).toMatch(/^<!DOCTYPE html>/i);
    // The scan's own exit code for the same --fail-on; the default is the gate's (error: the fixture has a URI override).
    const [mWarn, sWarn, mErr] = await Promise.all([
      runCli(["merge", whole, "--format", "json", "--fail-on", "warning"]),
      runCli(["scan", ...scanArgs, "--format", "json", "--fail-on", "warning"]),
      runCli(["merge", whole, "--format", "json"]),
    ]);
    expect(mWarn.exitCode).toBe(sWarn.exitCode);
    expect(mWarn.exitCode).toBe(1);
    expect(mErr.exitCode).toBe(1);
  }, 60_000);

  it("refuses with one line and exit 2: invalid JSON (line and column), not a report, a missing shard, a missing file", async () => {
    const broken = path.join(dir, "broken.json");
    writeFileSync(broken, '{\n  "schemaVersion": 1,\n  "tool": oops\n}\n');
    const r1 = await runCli(["merge", broken]);
    expect(r1.exitCode).toBe(2);
    expect(r1.stderr.trim()).toMatch(new RegExp(`^cf-waf-migrate: merge: ${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:\\d+: not valid JSON`));
    expect(r1.stderr.trim().split("\n")).toHaveLength(1);

    const state = path.join(FIXTURE, "terraform.tfstate");
    const r2 = await runCli(["merge", state]);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr).toContain("not a cf-waf-migrate JSON report");

    const doc = JSON.parse(readFileSync(whole, "utf8")) as Record<string, unknown>;
    const s1 = path.join(dir, "s1.json");
    const s3 = path.join(dir, "s3.json");
    writeFileSync(s1, JSON.stringify({ ...doc, shard: { index: 1, count: 3 } }));
    writeFileSync(s3, JSON.stringify({ ...doc, resources: [], zones: [], findings: [], shard: { index: 3, count: 3 } }));
    const r3 = await runCli(["merge", s1, s3, "--format", "json"]);
    expect(r3.exitCode).toBe(2);
    expect(r3.stderr.trim()).toBe("cf-waf-migrate: merge: shard 2/3 missing: merge needs the report of every shard (got 1/3, 3/3)");
    expect(r3.stdout).toBe("");

    const r4 = await runCli(["merge", path.join(dir, "nope.json")]);
    expect(r4.exitCode).toBe(2);
    expect(r4.stderr).toContain("nope.json: no such file");
  }, 60_000);
});
