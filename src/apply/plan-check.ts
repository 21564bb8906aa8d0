// Step 3 (plan step 4): with the rulesets imported, `plan -refresh=false -detailed-exitcode` targeted at
// them must show no change. A change means the generated ruleset differs from the live one: the run stops
// and shows the plan, unless --accept-changes. The plan is targeted so that other pending work (a legacy
// block whose state entry a resumed run already removed, which the next steps delete) does not count;
// the final plan (step 6) checks everything. `-refresh=false`: refreshing a legacy resource fails now
// that the previous WAF's API is retired.
import { formatCommandLine, plan, planArgs } from "../terraform/runner/index.js";
import { StepFailedError } from "./errors.js";
import type { ApplyStep } from "./types.js";

function targets(imports: { to: string }[]): string[] {
  return [...new Set(imports.map((i) => i.to))];
}

export const planCheckStep: ApplyStep = {
  number: 3,
  name: "plan-check",
  title: "Check that the imported rulesets match the configuration",
  async done(ctx) {
    return ctx.migration.imports.length === 0 ? "no ruleset to check" : null;
  },
  async run(ctx) {
    const options = { refresh: false, targets: targets(ctx.migration.imports) };
    if (ctx.dryRun) {
      return {
        status: "would-run",
        detail: "would plan the imported rulesets and stop if it shows any change",
        wouldRun: [formatCommandLine(ctx.cli.bin, planArgs(options))],
      };
    }
    const result = await plan(ctx.cli, options);
    const output = ctx.redact(result.stdout).trim();
    if (!result.changes) return { status: "done", detail: `no changes to ${options.targets.join(", ")}` };
    if (ctx.acceptChanges) {
      return { status: "done", detail: `the plan shows changes, accepted with --accept-changes:\n${output}` };
    }
    throw new StepFailedError(
      `the plan shows changes to the imported ruleset: the generated configuration differs from the live ruleset. Edit the cloudflare_ruleset until this plan shows no change (or pass --accept-changes to let the next \`${ctx.terraform.flavor} apply\` make them)`,
      output,
    );
  },
};
