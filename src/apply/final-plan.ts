// Step 6 (plan step 7): `plan -detailed-exitcode -refresh=false -out=…` over the whole root module, the plan
// saved next to the state backup (`.cf-waf-migrate/final-<UTC>.tfplan`). Exit 0: the migration is complete.
// Exit 2 with root output changes only (outputs that exposed legacy blocks were removed with them): `apply
// --yes` applies that saved plan, exactly what was checked, which writes the outputs to the state and changes
// nothing in Cloudflare; left unapplied, the next `terraform apply` of anyone would do it anyway. The same
// for a plan that only moves addresses (`moved` blocks, terraform's implicit `x` → `x[0]` after a user added
// count), outputs or not: no resource action, only the state's addresses change. Any other change: shown,
// nothing applied, and the run exits 1.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { applySavedPlan, applySavedPlanArgs, formatCommandLine, plan, planArgs } from "../terraform/runner/index.js";
import { onlyAddressMoves, onlyOutputChanges } from "../terraform/runner/plan.js";
import { BACKUP_DIR, display, utcStamp } from "./backup.js";
import { StepFailedError } from "./errors.js";
import type { ApplyContext, ApplyStep } from "./types.js";

/** Where the final plan is saved (relative to the root, where terraform runs). */
export function finalPlanFile(ctx: Pick<ApplyContext, "now">): string {
  return path.join(BACKUP_DIR, `final-${utcStamp(ctx.now())}.tfplan`);
}

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
    if (ctx.dryRun) {
      return {
        status: "would-run",
        detail: "would plan the root module and expect no changes (or only root output changes or address moves, which it would apply from the saved plan)",
        wouldRun: [formatCommandLine(ctx.cli.bin, planArgs({ refresh: false, out: finalPlanFile(ctx) }))],
      };
    }
    const out = finalPlanFile(ctx);
    await mkdir(path.join(ctx.chdir, BACKUP_DIR), { recursive: true });
    const result = await plan(ctx.cli, { refresh: false, out });
    const shown = display(ctx, path.join(ctx.chdir, out));
    const outputsOnly = result.changes && onlyOutputChanges(result.stdout);
    const moves = result.changes && !outputsOnly && onlyAddressMoves(result.stdout);
    if (outputsOnly || moves) {
      const chdir = display(ctx, ctx.chdir);
      const command = formatCommandLine(ctx.terraform.flavor, [...(chdir === "." ? [] : [`-chdir=${chdir}`]), ...applySavedPlanArgs(out)]);
      try {
        await applySavedPlan(ctx.cli, out);
      } catch (e) {
        throw new StepFailedError(
          moves
            ? `the plan only moves resource addresses in the state (moved blocks, or count added to a resource), but applying it failed; run \`${command}\` (from this directory) to save the moves to the state`
            : `the plan changes root module outputs only (outputs that exposed legacy blocks were removed), but applying it failed; run \`${command}\` (from this directory) to save them to the state`,
          ctx.redact(e instanceof Error ? e.message : String(e)),
        );
      }
      if (moves) {
        return {
          status: "done",
          detail: `no resource changes; only resource addresses move in the state (moved blocks, or count added to a resource${/^Changes to Outputs:/m.test(result.stdout) ? "; root outputs change too" : ""}): applied the saved plan ${shown}, which saved the moves to the state without changing anything in Cloudflare`,
        };
      }
      return {
        status: "done",
        detail: `no resource changes; only root module outputs changed (outputs that exposed legacy blocks were removed): applied the saved plan ${shown}, which saved them to the state without changing anything in Cloudflare`,
      };
    }
    if (result.changes) {
      throw new StepFailedError(
        `changes remain: the plan is not empty (saved as ${shown} for review with \`${ctx.terraform.flavor} show ${shown}\`). Fix the configuration; never apply a plan that destroys a legacy resource`,
        ctx.redact(result.stdout).trim(),
      );
    }
    return { status: "done", detail: "no changes: the configuration matches the state" };
  },
};
