// Step 6 (plan step 7): `plan -detailed-exitcode -refresh=false` over the whole root module. Exit 0: the
// migration is complete. Exit 2: changes remain, shown, and the run exits 1.
import { formatCommandLine, plan, planArgs } from "../terraform/runner/index.js";
import { StepFailedError } from "./errors.js";
import type { ApplyStep } from "./types.js";

export const finalPlanStep: ApplyStep = {
  number: 6,
  name: "final-plan",
  title: "Plan again, expecting no changes",
  async done() {
    return null;
  },
  async run(ctx) {
    const options = { refresh: false };
    if (ctx.dryRun) {
      return { status: "would-run", detail: "would plan the root module and expect no changes", wouldRun: [formatCommandLine(ctx.cli.bin, planArgs(options))] };
    }
    const result = await plan(ctx.cli, options);
    if (result.changes) {
      throw new StepFailedError(
        `changes remain: the plan is not empty. Review them (\`${ctx.terraform.flavor} plan -refresh=false\`) and fix the configuration; never apply a plan that destroys a legacy resource`,
        ctx.redact(result.stdout).trim(),
      );
    }
    return { status: "done", detail: "no changes: the configuration matches the state" };
  },
};
