// migrate.sh changes only the state its plan was made from. Two workspaces of one root (prod and staging,
// each with its own lineage, as `terraform workspace new` gives them); the plan reads a copy of staging's
// state pulled with `TF_WORKSPACE=staging terraform state pull` and saved outside terraform.tfstate.d/, so
// its workspace is unknown. Found in a trial: run with prod selected, migrate.sh removed prod's legacy
// entries (and imported staging's zone into prod). Now it refuses before any change, both states
// byte-identical; with staging selected it runs. Real terraform (state pull/list/rm, workspace); import
// and plan stubbed (test/support/real-terraform.sh).
import { execa } from "execa";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { copyTree, corpusTree, REAL_TERRAFORM, RULESET_ID, runScript, stateList, tfEnv } from "./helpers.js";

const PROD = "11111111-1111-4111-8111-111111111111";
const STAGING = "22222222-2222-4222-8222-222222222222";
const LEGACY = /cloudflare_waf_(package|rule)\./;

describe("migrate.sh from a plan made with a pulled copy of one workspace's state", { timeout: 300_000 }, () => {
  it("refuses with another workspace selected (nothing changed) and runs with the plan's workspace", async () => {
    const t = corpusTree("realworld-nested-modules");
    const copy = await copyTree(t);
    const root = copy.root;
    // The tree's state becomes two workspaces' states, each with its own lineage; default has none.
    const base = readFileSync(path.join(root, "terraform.tfstate"), "utf8");
    for (const [ws, lineage] of [["prod", PROD], ["staging", STAGING]] as const) {
      mkdirSync(path.join(root, "terraform.tfstate.d", ws), { recursive: true });
      writeFileSync(path.join(root, "terraform.tfstate.d", ws, "terraform.tfstate"), base.replace(/"lineage": "[^"]*"/, `"lineage": "${lineage}"`));
    }
    await execa("rm", [path.join(root, "terraform.tfstate")]);
    const tf = (args: string[], env: Record<string, string> = {}) => execa(REAL_TERRAFORM, args, { cwd: root, env: tfEnv(env) });
    const pulled = path.join(tempDir("cfwm-pulled-"), "staging.tfstate");
    writeFileSync(pulled, (await tf(["state", "pull"], { TF_WORKSPACE: "staging" })).stdout);

    const out = tempDir("cfwm-plan-");
    const ids = t.zones.flatMap((z) => ["--ruleset-id", `${z}=${RULESET_ID}`]);
    const plan = await runCli(["plan", ".", "--state", pulled, ...ids, "--out-dir", out, "--format", "json"], { cwd: root });
    expect(plan.exitCode, plan.stderr).toBe(0);
    const planMd = readFileSync(path.join(out, "PLAN.md"), "utf8");
    expect(planMd).toContain(`lineage ${STAGING}, serial 7`);
    expect(planMd).toContain("The workspace of this state is unknown");
    const script = readFileSync(path.join(out, "migrate.sh"), "utf8");
    expect(script).not.toContain("export TF_WORKSPACE");
    expect(script).toContain("Its workspace is unknown");
    // PLAN.md step 2 (migrate.sh refuses to start without the ruleset it imports declared).
    copyFileSync(path.join(out, "ruleset.tf"), path.join(root, "cf-waf-migrate-ruleset.tf"));

    const prodFile = path.join(root, "terraform.tfstate.d/prod/terraform.tfstate");
    const stagingFile = path.join(root, "terraform.tfstate.d/staging/terraform.tfstate");
    const prodBefore = readFileSync(prodFile);
    const stagingBefore = readFileSync(stagingFile);

    // prod selected (the data directory's environment file): refused before any change.
    await tf(["workspace", "select", "prod"]);
    const wrong = await runScript(copy, out);
    expect(wrong.code, wrong.stdout + wrong.stderr).toBe(1);
    expect(wrong.stderr).toContain("refused: the state here is not the one the plan was made from. Nothing was changed.");
    expect(wrong.stderr).toContain(`lineage ${STAGING}, serial 7, workspace unknown`);
    expect(wrong.stderr).toContain(`state pull in workspace prod (the one this run would change): lineage ${PROD}, serial 7`);
    expect(wrong.stderr).toContain("workspace staging has the plan's state: run TF_WORKSPACE=staging bash migrate.sh");
    expect(wrong.stdout).not.toContain("Step 3");
    expect(readFileSync(prodFile).equals(prodBefore)).toBe(true);
    expect(readFileSync(stagingFile).equals(stagingBefore)).toBe(true);

    // TF_WORKSPACE naming another workspace is refused the same way.
    const env = await runScript(copy, out, { TF_WORKSPACE: "default" });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain("state pull in workspace default (the one this run would change): no state");
    expect(readFileSync(prodFile).equals(prodBefore)).toBe(true);

    // staging selected: it runs (step 5 removes staging's legacy entries; the blocks stay for prod's).
    await tf(["workspace", "select", "staging"]);
    const right = await runScript(copy, out);
    expect(right.code, right.stdout + right.stderr).toBe(0);
    expect(right.stdout).toContain(`state: workspace staging, lineage ${STAGING}, serial 7 (the plan read serial 7)`);
    expect(right.stdout).toContain("stopping before step 6: workspace(s) prod of this root still hold legacy instances");
    expect((await stateList(root)).filter((a) => LEGACY.test(a))).toEqual([]);
    expect(readFileSync(prodFile).equals(prodBefore)).toBe(true);

    // A rerun reads a higher serial of the same lineage: accepted.
    const again = await runScript(copy, out);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`state: workspace staging, lineage ${STAGING}, serial (8|9|1\\d) \\(the plan read serial 7\\)`));
  });
});
