// Removing a root output that exposed a legacy block leaves a plan that changes outputs only (exit 2 of
// -detailed-exitcode, no resource action). The real terraform says so in its own words; apply's final
// plan and migrate.sh's step 7 accept exactly that, and nothing else.
import { execa } from "execa";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finalPlanStep } from "../../src/apply/final-plan.js";
import type { ApplyContext } from "../../src/apply/types.js";
import { renderMigrateScript } from "../../src/plan/migrate-script.js";
import { onlyOutputChanges } from "../../src/terraform/runner/plan.js";
import { tempDir } from "../support/workdir.js";

const TERRAFORM = "/usr/local/bin/terraform";
const tfEnv = { TF_IN_AUTOMATION: "1", TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" };

/** Real `terraform plan -detailed-exitcode` texts: outputs only, and outputs plus a resource (builtin provider, offline). */
async function realPlans(): Promise<{ outputsOnly: { code: number; stdout: string }; withResource: { code: number; stdout: string } }> {
  const dir = tempDir("cfwm-outplan-");
  const tf = (...args: string[]) => execa(TERRAFORM, args, { cwd: dir, env: tfEnv, reject: false });
  writeFileSync(path.join(dir, "main.tf"), 'output "kept" {\n  value = 1\n}\n\noutput "waf_package" {\n  value = "c504870194831cd12c3fc0284f294abb"\n}\n');
  expect((await tf("init", "-input=false")).exitCode).toBe(0);
  expect((await tf("apply", "-auto-approve", "-input=false")).exitCode).toBe(0);
  writeFileSync(path.join(dir, "main.tf"), 'output "kept" {\n  value = 1\n}\n');
  const a = await tf("plan", "-detailed-exitcode", "-refresh=false", "-input=false", "-no-color");
  writeFileSync(path.join(dir, "main.tf"), 'output "kept" {\n  value = 1\n}\n\nresource "terraform_data" "x" {\n  input = 1\n}\n');
  const b = await tf("plan", "-detailed-exitcode", "-refresh=false", "-input=false", "-no-color");
  return { outputsOnly: { code: a.exitCode!, stdout: a.stdout }, withResource: { code: b.exitCode!, stdout: b.stdout } };
}

describe.runIf(existsSync(TERRAFORM))("a plan that changes root outputs only", () => {
  it("is told apart from one that changes resources, on real terraform output", async () => {
    const { outputsOnly, withResource } = await realPlans();
    expect(outputsOnly.code).toBe(2);
    expect(withResource.code).toBe(2);
    expect(onlyOutputChanges(outputsOnly.stdout)).toBe(true);
    expect(onlyOutputChanges(withResource.stdout)).toBe(false);
  });

  it("migrate.sh step 7 ends well on outputs only, and stops on anything else", async () => {
    const { outputsOnly, withResource } = await realPlans();
    const script = renderMigrateScript({ version: "test", zones: [], legacyResources: [], patchDir: ".", legacyPatch: null, overridesPatch: null });
    const dir = tempDir("cfwm-step7-");
    writeFileSync(path.join(dir, "migrate.sh"), script);
    const run = async (plan: { code: number; stdout: string }) => {
      writeFileSync(path.join(dir, "plan.txt"), plan.stdout);
      const tf = path.join(dir, "tf");
      // `plan -detailed-exitcode` prints the recorded text; every other plan (step 4) has no changes.
      writeFileSync(tf, `#!/usr/bin/env bash\nif [ "$1" = plan ] && [ "$2" = -detailed-exitcode ]; then cat ${JSON.stringify(path.join(dir, "plan.txt"))}; exit ${plan.code}; fi\nexit 0\n`);
      chmodSync(tf, 0o755);
      return execa("bash", [path.join(dir, "migrate.sh"), "--yes"], { cwd: dir, env: { TF: tf }, reject: false });
    };
    const ok = await run(outputsOnly);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain("done: no resource changes; only root outputs change");
    const stop = await run(withResource);
    expect(stop.exitCode).toBe(2);
    expect(stop.stderr).toContain("the plan still shows changes");
  });
});

describe.runIf(existsSync(TERRAFORM))("apply's final plan", () => {
  it("is done when only root outputs change, and fails on a resource change", async () => {
    const { outputsOnly, withResource } = await realPlans();
    const dir = tempDir("cfwm-finalplan-");
    const ctx = (plan: { code: number; stdout: string }) =>
      ({
        // The recorded plan for `plan`; `apply` of the saved plan succeeds.
        cli: { bin: "terraform", cwd: "/", run: async (args: string[]) => (args[0] === "apply" ? { exitCode: 0, stdout: "", stderr: "", timedOut: false } : { exitCode: plan.code, stdout: plan.stdout, stderr: "", timedOut: false }) },
        chdir: dir,
        cwd: dir,
        now: () => new Date(0),
        dryRun: false,
        terraform: { flavor: "terraform", version: "1.11.0" },
        redact: (t: string) => t,
      }) as unknown as ApplyContext;
    const done = await finalPlanStep.run(ctx(outputsOnly));
    expect(done.status).toBe("done");
    expect(done.detail).toContain("only root module outputs change");
    await expect(finalPlanStep.run(ctx(withResource))).rejects.toThrow(/changes remain/);
  });
});
