// Step 6 (plan step 7): `plan -detailed-exitcode -refresh=false` over the whole root module. Exit 0: the
// migration is complete. Exit 2: changes remain, shown, and the run exits 1.
import { formatCommandLine, plan, planArgs } from "../terraform/runner/index.js";
import { onlyOutputChanges } from "../terraform/runner/plan.js";
import { StepFailedError } from "./errors.js";
import type { ApplyStep } from "./types.js";

export const finalPlanStep: ApplyStep = {
  number: 6,
  name: "final-plan",
  title: "Plan again, expecting no changes",
  async done(ctx) {
    // With the blocks kept and their state entries gone, a plan shows the legacy resources to create: the
    // expected state until the other holders have migrated, not something to check or apply.
    return ctx.migration.keepBlocks ? "not planned while the legacy blocks are kept (see step 5): the plan would show them to be created; never apply it" : null;
  },
  async run(ctx) {
    const options = { refresh: false };
    if (ctx.dryRun) {
      return { status: "would-run", detail: "would plan the root module and expect no changes", wouldRun: [formatCommandLine(ctx.cli.bin, planArgs(options))] };
    }
    const result = await plan(ctx.cli, options);
    // Root outputs removed with the legacy blocks (they only exposed them) change the outputs in state
    // and nothing else: that is the expected end, said as such.
    if (result.changes && onlyOutputChanges(result.stdout)) {
      return {
        status: "done",
        detail: `no resource changes; only root module outputs change (outputs that exposed legacy blocks were removed): \`${ctx.terraform.flavor} apply -refresh=false\` saves that to the state without changing anything in Cloudflare`,
      };
    }
    if (result.changes) {
      throw new StepFailedError(
        `changes remain: the plan is not empty. Review them (\`${ctx.terraform.flavor} plan -refresh=false\`) and fix the configuration; never apply a plan that destroys a legacy resource`,
        ctx.redact(result.stdout).trim(),
      );
    }
    return { status: "done", detail: "no changes: the configuration matches the state" };
  },
};
