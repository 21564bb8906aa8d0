// The estate options from the built CLI on a copy of testdata/estate: --pull-state through the real
// terraform (local backends; workspaces are the directories under terraform.tfstate.d/, modules installed
// with `terraform get`, offline) against the same run with --state files; --shard K/N runs joined by
// `merge`; --summary-file; usage errors.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { shardOfRoot } from "../../src/core/shard.js";
import { runCli, TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";
import { tempDir } from "../support/workdir.js";

const TERRAFORM = existsSync("/usr/local/bin/terraform") ? "/usr/local/bin/terraform" : "terraform";
const STATES: readonly string[] = ESTATE_STATES;
const stateArgs = STATES.flatMap((s) => ["--state", s]);

let dir: string;

beforeAll(() => {
  dir = tempDir("cfwm-estate-tools-");
  cpSync(path.join(TESTDATA, "estate"), dir, { recursive: true });
  // Modules installed as `terraform init` would (offline for local modules): state pull loads the configuration.
  for (const root of ["live/prod", "live/staging", "live/edge", "live/migrated", "live/dns", "modules/legacy-waf/examples/basic"]) {
    execFileSync(TERRAFORM, [`-chdir=${root}`, "get"], { cwd: dir, stdio: "pipe", env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  }
}, 120_000);

async function json(args: string[], cwd = dir): Promise<{ report: Report & { shard?: unknown }; exitCode: number; stderr: string }> {
  const r = await runCli([...args, "--format", "json", "--quiet"], { cwd });
  return { report: JSON.parse(r.stdout) as Report, exitCode: r.exitCode, stderr: r.stderr };
}

const strip = (r: Report) => ({ ...r, roots: r.roots?.map((x) => ({ path: x.path, workspace: x.workspace })) });

describe("--pull-state (built CLI, real terraform)", () => {
  it("reads every root's workspaces live and reports what --state files report; an uninitialised root is one input error", async () => {
    const [pulled, files] = await Promise.all([
      json(["scan", ".", "--pull-state", "--terraform-bin", TERRAFORM, "--jobs", "3", "--summary-file", "summary.json"]),
      json(["scan", ".", ...stateArgs]),
    ]);
    expect(pulled.report.errors).toEqual([]);
    expect(pulled.exitCode).toBe(0);
    expect(strip(pulled.report)).toEqual(strip(files.report));
    expect(pulled.report.roots!.find((r) => r.workspace === "eu")!.states).toEqual([`TF_WORKSPACE=eu ${TERRAFORM} -chdir=live/staging state pull`]);
    const summary = JSON.parse(readFileSync(path.join(dir, "summary.json"), "utf8")) as { Name: string; Workspace: string; Result: string }[];
    expect(summary.map((s) => `${s.Name}:${s.Workspace}:${s.Result}`)).toEqual(pulled.report.roots!.map((r) => `${r.path}:${r.workspace}:succeeded`));

    // A root with a backend block that was never initialised: exit 2, one line with the fix, the rest reported.
    const extra = tempDir("cfwm-estate-new-");
    cpSync(dir, extra, { recursive: true });
    mkdirSync(path.join(extra, "live/new"), { recursive: true });
    writeFileSync(path.join(extra, "live/new/main.tf"), 'terraform {\n  backend "local" {}\n}\n\nresource "cloudflare_page_rule" "p" {\n  zone_id = "5f60718293a4b5c6d7e8f90112233445"\n  target  = "example.net/*"\n  actions {\n    waf = "off"\n  }\n}\n');
    const broken = await json(["gate", ".", "--pull-state", "--terraform-bin", TERRAFORM, "--summary-file", "summary.json", "--fail-on", "never"], extra);
    expect(broken.exitCode).toBe(2);
    expect(broken.report.errors).toHaveLength(1);
    expect(broken.report.errors[0]!.file).toBe("live/new");
    expect(broken.report.errors[0]!.message).toMatch(/^--pull-state: not initialised: .*Backend initialization required.*; fix: run `terraform -chdir=live\/new init`/);
    expect(broken.stderr).toContain("cf-waf-migrate: error: live/new: --pull-state: not initialised");
    expect(broken.report.zones.length).toBe(files.report.zones.length + 1);
    const s2 = JSON.parse(readFileSync(path.join(extra, "summary.json"), "utf8")) as { Name: string; Result: string; Reason?: string }[];
    expect(s2.find((s) => s.Name === "live/new")).toMatchObject({ Result: "failed", Reason: "run error" });
    expect(s2.filter((s) => s.Result === "failed")).toHaveLength(1);
  }, 120_000);
});

describe("one workspace's state unreadable (built CLI)", () => {
  it("fails that workspace alone: a positioned error for it, the root's other workspaces reported, exit 2, its own summary entry", async () => {
    const broken = tempDir("cfwm-estate-truncated-");
    cpSync(dir, broken, { recursive: true });
    const us = "live/staging/terraform.tfstate.d/us/terraform.tfstate";
    const text = readFileSync(path.join(broken, us), "utf8");
    writeFileSync(path.join(broken, us), text.slice(0, Math.floor(text.length / 2))); // truncated mid-write
    const [files, pulled] = await Promise.all([
      json(["scan", ".", ...stateArgs, "--summary-file", "summary-files.json"], broken),
      json(["scan", ".", "--pull-state", "--terraform-bin", TERRAFORM, "--summary-file", "summary-pulled.json"], broken),
    ]);
    for (const [run, summaryFile] of [[files, "summary-files.json"], [pulled, "summary-pulled.json"]] as const) {
      expect(run.exitCode).toBe(2);
      expect(run.report.errors).toHaveLength(1);
      expect(run.report.errors[0]).toMatchObject({ root: "live/staging", workspace: "us" });
      expect(run.report.roots!.map((r) => `${r.path}:${r.workspace}`)).toContain("live/staging:eu");
      const summary = JSON.parse(readFileSync(path.join(broken, summaryFile), "utf8")) as { Name: string; Workspace: string; Result: string; Cause?: string }[];
      expect(summary.filter((e) => e.Result === "failed").map((e) => `${e.Name}:${e.Workspace}`)).toEqual(["live/staging:us"]);
      expect(summary.find((e) => e.Workspace === "eu")).toMatchObject({ Name: "live/staging", Result: "succeeded" });
    }
    // --state: the error is where the file breaks.
    expect(files.report.errors[0]).toMatchObject({ file: us });
    expect(files.report.errors[0]!.line).not.toBeNull();
    expect(files.stderr).toContain(`cf-waf-migrate: error: ${us}:`);
    // terraform's own words for the damaged state, not a warning it printed first (a CLI configuration warning was).
    expect(pulled.report.errors[0]!.message).toMatch(/^--pull-state \(workspace us\): unreadable state: .*Unsupported state file format.*; fix: the state itself is damaged/);
  }, 120_000);
});

describe("--shard K/N and merge (built CLI)", () => {
  it("N shard runs joined by merge give the unsharded report; each shard lists the others' roots as excluded", async () => {
    // A split where the zone shared by live/prod and live/edge stays in one shard (merge refuses otherwise).
    const n = [2, 3, 4, 5, 6, 7].find((k) => shardOfRoot("live/prod", k) === shardOfRoot("live/edge", k) && new Set(["live/prod", "live/staging", "live/migrated", "live/dns"].map((p) => shardOfRoot(p, k))).size > 1)!;
    const whole = await json(["gate", ".", ...stateArgs, "--fail-on", "never"]);
    const shardRuns = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        runCli(["gate", ".", ...stateArgs, "--shard", `${i + 1}/${n}`, "--fail-on", "never", "--quiet", "--format", `json=shard-${i + 1}.json`, "--summary-file", `summary-${i + 1}.json`], { cwd: dir }),
      ),
    );
    for (const r of shardRuns) expect(r.exitCode, r.stderr).toBe(0);
    const shard1 = JSON.parse(readFileSync(path.join(dir, "shard-1.json"), "utf8")) as Report & { shard: unknown };
    expect(shard1.shard).toEqual({ index: 1, count: n });
    const merged = await runCli(["merge", ...Array.from({ length: n }, (_, i) => `shard-${n - i}.json`), "--format", "json", "--fail-on", "never"], { cwd: dir });
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toEqual(whole.report);
    // Gate exit code as if scanned at once.
    const [mergedGate, wholeGate] = await Promise.all([
      runCli(["merge", ...Array.from({ length: n }, (_, i) => `shard-${i + 1}.json`), "--format", "text"], { cwd: dir }),
      runCli(["gate", ".", ...stateArgs, "--format", "json", "--quiet"], { cwd: dir }),
    ]);
    expect(mergedGate.exitCode).toBe(wholeGate.exitCode);

    const all = whole.report.roots!.map((r) => r.path);
    const summaries = Array.from({ length: n }, (_, i) => JSON.parse(readFileSync(path.join(dir, `summary-${i + 1}.json`), "utf8")) as { Name: string; Result: string; Cause?: string }[]);
    for (const [i, s] of summaries.entries()) {
      const excluded = s.filter((e) => e.Result === "excluded");
      expect(new Set([...s.map((e) => e.Name)])).toEqual(new Set(all));
      for (const e of excluded) expect(e.Cause).toBe(`scanned by shard ${shardOfRoot(e.Name, n)}/${n} (this run is shard ${i + 1}/${n})`);
    }

    // A missing shard is refused.
    const missing = await runCli(["merge", "shard-1.json", "--format", "json"], { cwd: dir });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/shards? .*2\/\d+.* missing/);
  }, 120_000);

  it("refuses a bad --shard or --jobs before reading anything", async () => {
    for (const [args, message] of [
      [["--shard", "0/4"], "--shard 0/4: K must be between 1 and 4"],
      [["--shard", "3"], `--shard "3": expected K/N`],
      [["--jobs", "0", "--pull-state"], "--jobs 0: expected a whole number of at least 1"],
    ] as const) {
      const r = await runCli(["scan", ".", ...args, "--format", "json"], { cwd: dir });
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n")[0]).toContain(message);
      expect(r.stdout).toBe("");
    }
  }, 60_000);
});
