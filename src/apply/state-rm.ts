// Step 4 (plan step 5): drop the legacy resources from state, never destroying them (a destroy would
// reset the live previous WAF to its defaults). Every instance the live state holds of a legacy resource
// is named, so a resumed run removes what is left. The `-dry-run` is always run and shown first; the real removal only
// with --yes, and it must remove exactly what the dry run listed.
import { formatCommandLine, stateRm, stateRmArgs } from "../terraform/runner/index.js";
import { StepFailedError } from "./errors.js";
import { legacyLeftInState } from "./preflight.js";
import type { ApplyContext, ApplyStep } from "./types.js";

/**
 * Every instance the live state holds of a legacy resource, by resource and not by the plan's instance
 * strings: an instance the preflight did not list (keyed differently, or created since) is removed too.
 */
function present(ctx: ApplyContext): string[] {
  return legacyLeftInState(ctx.stateList, ctx.migration).sort();
}

export const stateRmStep: ApplyStep = {
  number: 4,
  name: "state-rm",
  title: "Remove the legacy resources from state",
  async done(ctx) {
    if (present(ctx).length > 0) return null;
    return ctx.migration.stateRemovals.length === 0 && ctx.migration.blockConfigAddresses.length === 0 ? "no legacy address in state" : "no legacy address left in state";
  },
  async run(ctx) {
    const addresses = present(ctx);
    const dry = await stateRm(ctx.cli, addresses, { dryRun: true });
    const preview = ctx.redact(dry.stdout).trimEnd();
    if (dry.unmatched.length > 0) {
      throw new StepFailedError(`the dry run does not list ${dry.unmatched.join(", ")}: nothing was removed`, preview);
    }
    if (ctx.dryRun) {
      return {
        status: "would-run",
        detail: `${preview}\nwould remove these ${addresses.length} address(es) from state (the live WAF is not touched)`,
        wouldRun: [formatCommandLine(ctx.cli.bin, stateRmArgs(addresses))],
      };
    }
    const real = await stateRm(ctx.cli, addresses);
    const removed = new Set(real.removed);
    ctx.stateList = ctx.stateList.filter((a) => !removed.has(a));
    const expected = new Set(dry.removed);
    const surprise = real.removed.filter((a) => !expected.has(a));
    const missing = dry.removed.filter((a) => !removed.has(a));
    if (surprise.length > 0 || missing.length > 0 || real.unmatched.length > 0) {
      throw new StepFailedError(
        `the removal differs from its dry run${surprise.length ? `; also removed: ${surprise.join(", ")}` : ""}${missing.length ? `; not removed: ${missing.join(", ")}` : ""}${real.unmatched.length ? `; matched nothing: ${real.unmatched.join(", ")}` : ""}`,
        ctx.redact(real.stdout).trimEnd(),
      );
    }
    return { status: "done", detail: `${preview}\n${ctx.redact(real.stdout).trimEnd()}` };
  },
};
