// `terraform import` reads every data source of the configuration, and the legacy WAF data sources
// (`data "cloudflare_waf_packages"` looked up by name, the shape public modules use) fail once the zone is
// migrated: the previous WAF's API refuses them (step 0 must be done before the import). With such a
// data source in the configuration the import can never succeed while the legacy blocks are there. When
// the import failed for that reason alone, and the blocks are ours to delete, the run goes on in the
// other safe order: state entries out (step 4), blocks out (step 5, same fresh-state-list guard), then
// the import and its check (steps 2, 3) and the final plan. Deleting a block only after its state entry
// is gone is all that keeps the live WAF safe; the import's place does not matter to it.
import { isLegacyDataAddress } from "../core/legacy-types.js";
import { resourceOfInstance } from "../core/resource-match.js";
import { errorSubjects, TerraformCommandError } from "../terraform/runner/index.js";
import { finalPlanStep } from "./final-plan.js";
import { importStep } from "./import.js";
import { planCheckStep } from "./plan-check.js";
import { removeBlocksStep } from "./remove-blocks.js";
import { stateRmStep } from "./state-rm.js";
import type { ApplyContext, ApplyStep } from "./types.js";

/** The steps after an import deferred by `deferredImportReason`, in their order. */
export const AFTER_DEFERRED_IMPORT: readonly ApplyStep[] = [stateRmStep, removeBlocksStep, importStep, planCheckStep, finalPlanStep];

/**
 * The steps after a deferred import while the blocks are kept for other states: this state's legacy
 * entries still leave (so that every state sharing the blocks can get there, and the last one deletes
 * them), and the import waits for a run after the blocks are gone (`pendingImportError`).
 */
export const AFTER_DEFERRED_IMPORT_KEPT: readonly ApplyStep[] = [stateRmStep, removeBlocksStep];

export function stepsAfterDeferredImport(ctx: ApplyContext): readonly ApplyStep[] {
  return ctx.migration.keepBlocks ? AFTER_DEFERRED_IMPORT_KEPT : AFTER_DEFERRED_IMPORT;
}

/**
 * When `steps[at]` is the first import of the run and `e` a failure `deferredImportReason` accepts, replaces
 * the steps after it with `stepsAfterDeferredImport` and returns the reason; null otherwise (the failure stands).
 */
export function deferImport(steps: ApplyStep[], at: number, e: unknown, ctx: ApplyContext): string | null {
  if (steps[at] !== importStep || steps.slice(0, at).includes(importStep)) return null;
  const reason = deferredImportReason(e, ctx);
  if (reason !== null) steps.splice(at + 1, steps.length, ...stepsAfterDeferredImport(ctx));
  return reason;
}

/** The stop of a run whose import is deferred and did not run again (the blocks are kept); null otherwise. */
export function pendingImportError(steps: readonly { name: string; status: string }[], ctx: ApplyContext): string | null {
  const at = steps.findIndex((s) => s.name === "import" && s.status === "deferred");
  if (at < 0 || steps.slice(at + 1).some((s) => s.name === "import")) return null;
  return `the import of the rulesets waits until the legacy blocks are deleted (\`${ctx.terraform.flavor} import\` reads the legacy data sources, which the retired API refuses), and they are kept: ${ctx.migration.keepBlocks ?? "see step 5"}. This state's legacy entries are removed; run the same command again once the other states have removed theirs (the last of them deletes the blocks)`;
}

/**
 * Why the failed import may wait until the legacy blocks are gone: every error terraform gave is the read
 * of a legacy data source whose block step 5 deletes (now, or once the other states holding the blocks have
 * removed their entries). Null otherwise (the failure stands).
 */
export function deferredImportReason(e: unknown, ctx: ApplyContext): string | null {
  if (!(e instanceof TerraformCommandError)) return null;
  const subjects = errorSubjects(e.stderr);
  if (subjects.length === 0 || subjects.some((s) => s === null || !isLegacyDataAddress(s))) return null;
  const deleted = new Set(ctx.migration.blockConfigAddresses);
  const resources = [...new Set(subjects.map((s) => resourceOfInstance(s!)))];
  if (resources.some((r) => r === null || !deleted.has(r))) return null;
  const why = `deferred: \`${ctx.terraform.flavor} import\` reads every data source of the configuration, and the previous WAF's API refuses ${resources.join(", ")} now that the zone is migrated. Nothing was imported`;
  if (ctx.migration.keepBlocks) return `${why}; the legacy state entries go (step 4), and the import waits for a run after the blocks, kept for other states now, are deleted`;
  return `${why}; the legacy state entries and blocks go first (steps 4 and 5, state first), then the import and its check run`;
}
