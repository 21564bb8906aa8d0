// A plan or apply of one root must not silently drop the WAF bypasses another root of the same repository
// configures for its zone: split-stacks' edge has Disable Security / WAF Off Page Rules for the docs zone whose
// legacy WAF is in legacy-waf. The copy is a repository of its own (a `.git` marker at its top).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { fakeTerraformBin, tempDir } from "../support/workdir.js";
import { snapshot } from "../apply/helpers.js";
import { byCode, DOCS, DOCS_RS, splitStacksRepository, type Finding } from "./split-stacks-repository.js";

/** split-stacks as a repository; legacy-waf pinned to ~> 3.35 so that its only error is the one under test. */
const repository = (opts: { git?: boolean } = {}) => splitStacksRepository({ ...opts, pinLegacy: true });

describe("plan of one root: other roots' bypasses for its zone", () => {
  it("a BYPASS_IN_OTHER_ROOT error at each Disable Security / WAF Off Page Rule of edge; --fail-on error fails", async () => {
    const top = repository();
    const r = await runCli(["plan", "legacy-waf", "--format", "json"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const found = byCode(report, "BYPASS_IN_OTHER_ROOT");
    // Paths are relative to the report's root (legacy-waf); the cache-only Page Rule (line 26) is no bypass.
    expect(found.map((f) => [f.file, f.line, f.zoneId, f.severity])).toEqual([
      ["../edge/page-rules.tf", 6, DOCS, "error"],
      ["../edge/page-rules.tf", 17, DOCS, "error"],
    ]);
    expect(found[0]!.message).toContain("cloudflare_page_rule.status_page in root edge (not in this run) disables security");
    expect(found[0]!.message).toContain("`cf-waf-migrate plan .`");
    const step2 = report.plan.steps.find((s: { number: number }) => s.number === 2);
    expect(step2.notes.join("\n")).toMatch(/the ruleset lacks the skip rules of Page Rules or firewall rules in edge, a root not in this run \(BYPASS_IN_OTHER_ROOT\)/);
    // The ruleset itself is unchanged: it has no skip rule (that is what the finding says).
    expect(report.zones[0].ruleset.rules.map((x: { action: string }) => x.action)).toEqual(["execute", "execute"]);

    const text = await runCli(["plan", "legacy-waf", "--format", "text"], { cwd: top });
    expect(text.stdout).toContain("BYPASS_IN_OTHER_ROOT  edge/page-rules.tf:6");
    expect(text.stdout).toContain("BYPASS_IN_OTHER_ROOT  edge/page-rules.tf:17");
    expect((await runCli(["plan", "legacy-waf", "--format", "json", "--fail-on", "error"], { cwd: top })).exitCode).toBe(1);
  });

  it("outside any repository the root stands alone: nothing else is searched", async () => {
    const top = repository({ git: false });
    const r = await runCli(["plan", "legacy-waf", "--format", "json", "--fail-on", "error"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(byCode(JSON.parse(r.stdout), "BYPASS_IN_OTHER_ROOT")).toEqual([]);
  });

  it("an expression zone id in the other root is VALUE_UNRESOLVED, never taken for the zone", async () => {
    const top = repository();
    const rules = path.join(top, "edge/page-rules.tf");
    writeFileSync(rules, readFileSync(rules, "utf8").replace('docs_zone_id = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7"', "docs_zone_id = data.cloudflare_zone.docs.id"));
    const report = JSON.parse((await runCli(["plan", "legacy-waf", "--format", "json"], { cwd: top })).stdout);
    expect(byCode(report, "BYPASS_IN_OTHER_ROOT")).toEqual([]);
    const unresolved = byCode(report, "VALUE_UNRESOLVED").filter((f) => f.details?.otherRoot === "edge");
    expect(unresolved.map((f) => [f.file, f.line, f.zoneId, f.severity])).toEqual([["../edge/page-rules.tf", 6, null, "warning"]]);
    expect(unresolved[0]!.message).toMatch(/root edge \(not in this run\) has 2 rules .* not known offline/);
  });

  it("--out-dir: PLAN.md names the rules and step 2 says the ruleset lacks them", async () => {
    const top = repository();
    const out = tempDir();
    const r = await runCli(["plan", "legacy-waf", "--out-dir", out, "--format", "json"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    const planMd = readFileSync(path.join(out, "PLAN.md"), "utf8");
    expect(planMd).toContain("BYPASS_IN_OTHER_ROOT");
    expect(planMd).toContain("cloudflare_page_rule.search in root edge");
    expect(planMd).toMatch(/the ruleset lacks the skip rules of Page Rules or firewall rules in edge/);

    // migrate.sh refuses to start on them, as apply does; ACCEPT_MISSING_SKIP_RULES=1 goes on (to the next
    // check, here a terraform that fails every command).
    const tf = path.join(tempDir(), "tf");
    writeFileSync(tf, "#!/usr/bin/env bash\necho 'tf stub: fails' >&2\nexit 1\n", { mode: 0o755 });
    const script = (env: Record<string, string>) => spawnSync("bash", [path.join(out, "migrate.sh"), "--yes"], { cwd: path.join(top, "legacy-waf"), env: { ...process.env, TF: tf, ...env }, encoding: "utf8" });
    const before = snapshot(top);
    const refused = script({});
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("migrate.sh: refusing to start: the ruleset step 3 imports lacks (or may lack) the skip rules of 2 rule(s) in roots this plan left out:");
    expect(refused.stderr).toContain("../edge/page-rules.tf:6: cloudflare_page_rule.status_page in root edge (BYPASS_IN_OTHER_ROOT)");
    expect(refused.stderr).not.toContain("tf stub");
    expect(snapshot(top)).toEqual(before);
    const accepted = script({ ACCEPT_MISSING_SKIP_RULES: "1" });
    expect(accepted.stderr).not.toContain("refusing to start");
    expect(accepted.status).toBe(1);
  });

  it("the estate plan over the repository: one ruleset with edge's skip rules, nothing about other roots", async () => {
    const top = repository();
    const r = await runCli(["plan", ".", "--format", "json"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.findings.filter((f: Finding) => f.code === "BYPASS_IN_OTHER_ROOT" || f.details?.otherRoot !== undefined)).toEqual([]);
    expect(byCode(report, "ZONE_SPLIT_ACROSS_ROOTS")).toHaveLength(1);
    // The same report as the same tree outside any repository (where no other root is searched).
    const alone = repository({ git: false });
    expect((await runCli(["plan", ".", "--format", "json"], { cwd: alone })).stdout).toBe(r.stdout);
  });
});

describe("apply in one root: other roots' bypasses for its zone", () => {
  const run = (top: string, args: string[], log: string) =>
    runCli(["apply", "--chdir", "legacy-waf", "--no-rehearsal", "--ruleset-id", `${DOCS}=${DOCS_RS}`, ...args], {
      cwd: top,
      env: { PATH: `${fakeTerraformBin()}${path.delimiter}${process.env.PATH}`, FAKE_TF_LOG: log },
    });
  const calls = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l)[0]) : []);

  it("refuses before any change (exit 2) while the root's ruleset lacks edge's skip rules", async () => {
    const top = repository();
    const out = tempDir();
    // The one-root plan's ruleset.tf, copied in as step 2 says: it has no skip rule.
    expect((await runCli(["plan", "legacy-waf", "--out-dir", out, "--format", "json"], { cwd: top })).exitCode).toBe(0);
    cpSync(path.join(out, "ruleset.tf"), path.join(top, "legacy-waf/cf-waf-migrate-ruleset.tf"));
    const before = snapshot(top);
    const log = path.join(tempDir(), "argv.log");
    const r = await run(top, ["--yes"], log);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("apply refused, nothing was changed");
    expect(r.stderr).toContain("../edge/page-rules.tf:6: cloudflare_page_rule.status_page in root ../edge disables security");
    expect(r.stderr).toContain("../edge/page-rules.tf:17: cloudflare_page_rule.search");
    expect(r.stderr).toContain("--accept-missing-skip-rules");
    expect(calls(log)).toEqual(["version", "state"]);
    expect(snapshot(top)).toEqual(before);

    // Told to go on, the dry run goes on.
    const accepted = await run(top, ["--accept-missing-skip-rules"], log);
    expect(accepted.exitCode, accepted.stderr).toBe(0);
  });

  it("goes on with the estate plan's ruleset.tf for the root (every root's skip rules) in place", async () => {
    const top = repository();
    const out = tempDir();
    expect((await runCli(["plan", ".", "--out-dir", out, "--format", "json"], { cwd: top })).exitCode).toBe(0);
    cpSync(path.join(out, "legacy-waf/ruleset.tf"), path.join(top, "legacy-waf/cf-waf-migrate-ruleset.tf"));
    const r = await run(top, [], path.join(tempDir(), "argv.log"));
    expect(r.exitCode, r.stderr).toBe(0);
    rmSync(top, { recursive: true, force: true });
  });
});
