// `cf-waf-migrate apply`: the migration plan run through terraform or tofu, one module per step.
export * from "./types.js";
export * from "./errors.js";
export { preflight, planMigration, legacyLeftInState, legacyResourcesOf, resolveChdir, type Preflight, type PreflightInput } from "./preflight.js";
export { backupStep, BACKUP_DIR, utcStamp, writeStateBackup } from "./backup.js";
export { importStep } from "./import.js";
export { planCheckStep } from "./plan-check.js";
export { stateRmStep } from "./state-rm.js";
export { removeBlocksStep } from "./remove-blocks.js";
export { finalPlanStep } from "./final-plan.js";
export { APPLY_STEPS, runApply, type ApplyOptions } from "./run.js";
export { applyJson, renderApplyJson, renderApplyHeader, renderApplyStep, renderApplySummary, renderApplyText, renderRehearsal } from "./render.js";
export { rehearse, REHEARSAL_STEPS, type RehearsalOptions } from "./rehearsal.js";
export { installedProviders } from "./rehearsal-providers.js";
export { localStatePath, selectedWorkspace } from "./rehearsal-workspace.js";
export { makeRehearsalCopy, REHEARSAL_OVERRIDE } from "./rehearsal-copy.js";
