// The safety promise on realistic trees, with the real terraform as the oracle (state list / rm / pull;
// import and plan stubbed): migrate.sh and `apply` end to end on every corpus tree, the step-6 guard, the
// patch checks before any change, and a SIGKILL of the whole process group at every step (migrate.sh) and
// at 30 seeded random points (apply), each followed by the invariant check and a rerun that finishes.
import { execa } from "execa";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import {
  copyTree,
  CORPUS,
  corpusTree,
  expectFinished,
  legacyInState,
  planArtifacts,
  REAL_TERRAFORM,
  runApplyCli,
  runScript,
  snapshot,
  tfEnv,
  violation,
  type GitLayout,
} from "./helpers.js";

const tree = corpusTree;

// Generous limits: real terraform runs on a busy shared machine; nothing here asserts a duration.
describe("the realistic corpus", { timeout: 300_000 }, () => {
  it("every tree's state is v4 JSON that the real terraform reads", async () => {
    for (const t of CORPUS) {
      const file = path.join(TESTDATA, t.name, t.root, "terraform.tfstate");
      const r = await execa(REAL_TERRAFORM, ["state", "list", `-state=${file}`], { env: tfEnv(), cwd: tempDir() });
      expect(r.stdout.split("\n").length, t.name).toBeGreaterThan(1);
    }
  });

  it.each(CORPUS.map((t) => [t.name, t] as const))("%s: migrate.sh --yes removes every instance, then every block, and ends with no changes", async (_name, t) => {
    const copy = await copyTree(t);
    const out = await planArtifacts(t, copy);
    const r = await runScript(copy, out);
    expect(r.stderr.replace(/^.*terraformrc.*$/gm, "")).not.toMatch(/migrate\.sh:/);
    expect(r.code).toBe(0);
    await expectFinished(t, copy);
  });

  it.each(CORPUS.map((t) => [t.name, t] as const))("%s: apply --yes does the same through the library", async (_name, t) => {
    const copy = await copyTree(t);
    const out = await planArtifacts(t, copy);
    copyFileSync(path.join(out, "ruleset.tf"), path.join(copy.root, "cf-waf-migrate-ruleset.tf"));
    copy.before = snapshot(copy.top);
    const r = await runApplyCli(t, copy);
    expect(r.stdout).toContain("Done");
    expect(r.code).toBe(0);
    await expectFinished(t, copy);
  });

  it.each(["none", "repo-top", "repo-subdir"] as GitLayout[])(
    "a root calling ../../ (examples/complete), git layout %s: the patch applies from the stated directory and really changes the module's file",
    async (layout) => {
      const t = tree("realworld-module-examples");
      const copy = await copyTree(t, layout);
      const out = await planArtifacts(t, copy);
      const patch = readFileSync(path.join(out, "legacy-removal.patch"), "utf8");
      expect(patch).toMatch(/^--- a\/main\.tf\n\+\+\+ b\/main\.tf\n/);
      expect(patch).not.toContain("../");
      const plan = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8"));
      expect(plan.plan.steps[6].commands).toEqual([`git -C '../..' apply "$PWD"/'legacy-removal.patch'`]);
      const r = await runScript(copy, out);
      expect(r.code).toBe(0);
      expect(readFileSync(path.join(copy.top, "main.tf"), "utf8")).not.toContain("cloudflare_waf");
      expect(readFileSync(path.join(copy.top, "main.tf"), "utf8")).toContain("group_rules = flatten(");
      await expectFinished(t, copy);
    },
  );

  it("planned without state (count = local.staging_only[var.environment]): the real state's x[0] is removed before the block goes", async () => {
    const t = tree("realworld-staging-count");
    const copy = await copyTree(t);
    const out = await planArtifacts(t, copy);
    const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8"));
    expect(report.zones[0].stateRemovals).toContain("cloudflare_waf_group.noisy");
    expect(await legacyInState(copy.root)).toContain("cloudflare_waf_group.noisy[0]");
    const r = await runScript(copy, out);
    expect(r.stdout).toContain("Removed cloudflare_waf_group.noisy[0]");
    expect(r.code).toBe(0);
    await expectFinished(t, copy);
  });

  it("count = 0 here (production tfvars) while the state holds x[0]: STATE_CONFIG_DRIFT names it, and migrate.sh and apply remove it from state before its block goes", async () => {
    const t = tree("realworld-staging-count");
    for (const via of ["migrate.sh", "apply"] as const) {
      const copy = await copyTree(t);
      writeFileSync(path.join(copy.root, "terraform.tfvars"), 'environment = "production"\n');
      copy.before = snapshot(copy.top);
      const out = await planArtifacts({ ...t, planWithState: true }, copy);
      const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8"));
      const drift = report.findings.filter((f: { code: string }) => f.code === "STATE_CONFIG_DRIFT");
      expect(drift.map((f: { address: string }) => f.address), via).toEqual(["cloudflare_waf_group.noisy[0]"]);
      expect(drift[0].message).toContain("would destroy it");
      expect(report.zones[0].stateRemovals).toContain("cloudflare_waf_group.noisy[0]");
      if (via === "apply") {
        copyFileSync(path.join(out, "ruleset.tf"), path.join(copy.root, "cf-waf-migrate-ruleset.tf"));
        copy.before = snapshot(copy.top);
      }
      const r = via === "apply" ? await runApplyCli(t, copy) : await runScript(copy, out);
      expect(r.code, via + r.stderr).toBe(0);
      expect(await legacyInState(copy.root)).toEqual([]);
      await expectFinished(t, copy);
    }
  });

  it("removed.tf: one removed {} per configured resource, nested module instances folded into one", async () => {
    const t = tree("realworld-nested-modules");
    const copy = await copyTree(t, "none", false);
    copyFileSync(path.join(TESTDATA, "multi-zone", ".terraform.lock.hcl"), path.join(copy.root, ".terraform.lock.hcl"));
    const out = await planArtifacts(t, copy);
    const removed = readFileSync(path.join(out, "removed.tf"), "utf8");
    expect([...removed.matchAll(/from = (.+)/g)].map((m) => m[1])).toEqual(["module.zones.module.waf.cloudflare_waf_package.owasp", "module.zones.module.waf.cloudflare_waf_rule.this"]);
  });

  it("step 6 refuses while a fresh state list still shows an instance, and changes no file", async () => {
    const t = tree("realworld-nested-modules");
    const copy = await copyTree(t);
    const out = await planArtifacts(t, copy);
    const r = await runScript(copy, out, { TF_RM_NOOP: "1" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the state still holds 5 instance(s) of legacy resources");
    expect(r.stderr).toContain('module.zones["blog.example.org"].module.waf[0].cloudflare_waf_rule.this["odd \\"]key[ $${x}"]');
    expect(await violation(copy)).toBeNull();
    expect((await legacyInState(copy.root)).length).toBe(5);
    // The rerun with a working state rm finishes.
    const again = await runScript(copy, out);
    expect(again.code).toBe(0);
    await expectFinished(t, copy);
  });

  it("a patch that no longer applies is refused before step 3: no import, no state change, no file change", async () => {
    const t = tree("realworld-data-sources");
    const copy = await copyTree(t);
    const out = await planArtifacts(t, copy);
    const main = path.join(copy.root, "main.tf");
    writeFileSync(main, readFileSync(main, "utf8").replace('sensitivity = "high"', 'sensitivity = "low"'));
    const stateBefore = readFileSync(path.join(copy.root, "terraform.tfstate"), "utf8");
    const edited = readFileSync(main, "utf8");
    const r = await runScript(copy, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("migrate.sh: legacy-removal.patch does not apply to main.tf and is not applied either: the file changed since the plan. Run cf-waf-migrate plan again. Nothing was changed");
    expect(r.stdout).not.toContain("Step 3");
    expect(readFileSync(path.join(copy.root, "terraform.tfstate"), "utf8")).toBe(stateBefore);
    expect(readFileSync(main, "utf8")).toBe(edited);
  });
});

describe("real terraform state rm -dry-run accepts every address the plans emit", { timeout: 300_000 }, () => {
  const fixtures = [
    ...CORPUS.map((t) => ({ name: t.name, root: t.root, withState: t.planWithState, zones: t.zones })),
    { name: "multi-zone", root: ".", withState: true, zones: [] as string[] },
    { name: "split-stacks", root: "legacy-waf", withState: true, zones: [] as string[] },
  ];
  it.each(fixtures.map((f) => [f.name, f] as const))("%s", async (_name, f) => {
    const copy = await copyTree({ name: f.name, root: f.root, zones: f.zones, planWithState: f.withState }, "none", false);
    const r = await execa("node", [path.join(TESTDATA, "..", "dist/cli/main.js"), "plan", ".", ...(f.withState ? ["--state", "terraform.tfstate"] : []), "--format", "json"], { cwd: copy.root, reject: false });
    const report = JSON.parse(r.stdout);
    const addresses = [...new Set<string>(report.zones.flatMap((z: { stateRemovals: string[] }) => z.stateRemovals))];
    expect(addresses.length).toBeGreaterThan(0);
    // In a directory of its own: the addresses are checked against the state alone.
    const dir = tempDir("cfwm-rm-");
    copyFileSync(path.join(copy.root, "terraform.tfstate"), path.join(dir, "terraform.tfstate"));
    const dry = await execa(REAL_TERRAFORM, ["state", "rm", "-dry-run", "-state=terraform.tfstate", ...addresses], { cwd: dir, env: tfEnv(), reject: false });
    expect(dry.exitCode, dry.stderr).toBe(0);
    for (const a of addresses) {
      const resource = a;
      expect(dry.stdout.split("\n").some((l) => l === `Would remove ${resource}` || l.startsWith(`Would remove ${resource}[`)), `${a} in ${dry.stdout}`).toBe(true);
    }
  });
});
