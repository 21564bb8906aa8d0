// Step 6 on real terraform (no provider needed: a root whose state holds root outputs only). The final plan is
// saved under .cf-waf-migrate/; a plan that only changes root outputs (the outputs removed with the legacy
// blocks) is applied from that saved file, so the state ends without them; any other change is refused and
// nothing is applied.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finalPlanStep, type ApplyContext } from "../../src/apply/index.js";
import { StepFailedError } from "../../src/apply/errors.js";
import { createTerraformCli } from "../../src/terraform/runner/index.js";
import { tempDir } from "../support/workdir.js";

const TERRAFORM = "/usr/local/bin/terraform";
const run = existsSync(TERRAFORM) ? describe : describe.skip;

function root(config: string): string {
  const dir = tempDir("cfwm-final-plan-");
  const state = { version: 4, terraform_version: "1.11.0", serial: 3, lineage: "final-plan-test", outputs: { waf_package_id: { value: "a25a9a7e9c00afc1fb2e0245519d725b", type: "string" }, zone_id: { value: "z", type: "string" } }, resources: [] };
  writeFileSync(path.join(dir, "terraform.tfstate"), JSON.stringify(state));
  writeFileSync(path.join(dir, "main.tf"), config);
  return dir;
}

function ctx(dir: string, dryRun = false): ApplyContext {
  return {
    cli: createTerraformCli({ bin: TERRAFORM, cwd: dir, env: { TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1" } }),
    chdir: dir,
    cwd: dir,
    dryRun,
    acceptChanges: true,
    terraform: { flavor: "terraform", version: "1.11.4" },
    stateText: "{}",
    stateList: [],
    migration: { imports: [], importNotes: [], stateRemovals: [], blockConfigAddresses: [], edits: [], patch: "" },
    redact: (t) => t,
    now: () => new Date("2026-11-25T05:00:00Z"),
    backupPath: null,
  };
}

const stateOutputs = (dir: string) => Object.keys(JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).outputs).sort();

run("final plan (real terraform)", { timeout: 120_000 }, () => {
  it("applies the saved plan when only root outputs change (an output removed with the legacy blocks)", async () => {
    const dir = root('output "zone_id" {\n  value = "z"\n}\n');
    const outcome = await finalPlanStep.run(ctx(dir));
    expect(outcome.status).toBe("done");
    expect(outcome.detail).toContain("applied the saved plan .cf-waf-migrate/final-20261125T050000Z.tfplan");
    expect(readdirSync(path.join(dir, ".cf-waf-migrate"))).toEqual(["final-20261125T050000Z.tfplan"]);
    expect(stateOutputs(dir)).toEqual(["zone_id"]);
  });

  it("applies nothing and saves the plan for review when a resource would change", async () => {
    const dir = root('output "zone_id" {\n  value = "z"\n}\nresource "terraform_data" "x" {}\n');
    const err = await finalPlanStep.run(ctx(dir)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepFailedError);
    expect((err as Error).message).toContain("terraform show .cf-waf-migrate/final-20261125T050000Z.tfplan");
    expect(stateOutputs(dir)).toEqual(["waf_package_id", "zone_id"]);
  });

  it("a dry run plans nothing and names the command with -out", async () => {
    const dir = root('output "zone_id" {\n  value = "z"\n}\n');
    const outcome = await finalPlanStep.run(ctx(dir, true));
    expect(outcome.status).toBe("would-run");
    expect(outcome.wouldRun?.[0]).toContain("-out=.cf-waf-migrate/final-20261125T050000Z.tfplan");
    expect(existsSync(path.join(dir, ".cf-waf-migrate"))).toBe(false);
  });
});
