// The dry run's rehearsal (as tfmigrate does it): steps 3-7 of the plan run for real on a throwaway copy of
// the root — the configuration copied, `state pull` output as local state, the backend overridden to local,
// the providers the user already installed (`init -plugin-dir`, nothing downloaded) — and the final plan
// is reported. The user's files, state and data directory are never written: every command runs in the
// copy with its own TF_DATA_DIR. Without installed providers it says so and the dry run stays read-only.
import { rmSync } from "node:fs";
import { recordingCli, stateList, type TerraformCli } from "../terraform/runner/index.js";
import { StepFailedError } from "./errors.js";
import { finalPlanStep } from "./final-plan.js";
import { importStep } from "./import.js";
import { deferImport, pendingImportError } from "./deferred-import.js";
import { planCheckStep } from "./plan-check.js";
import { makeRehearsalCopy } from "./rehearsal-copy.js";
import { installedProviders } from "./rehearsal-providers.js";
import { removeBlocksStep } from "./remove-blocks.js";
import { DEFAULT_WORKSPACE, selectedWorkspace } from "./rehearsal-workspace.js";
import { stateRmStep } from "./state-rm.js";
import type { ApplyContext, ApplyStep, RehearsalReport, StepRecord } from "./types.js";

/** Plan steps 3-7: import, plan check, state rm, block removal, final plan (no backup: the copy is thrown away). */
export const REHEARSAL_STEPS: readonly ApplyStep[] = [importStep, planCheckStep, stateRmStep, removeBlocksStep, finalPlanStep];

export type MakeCli = (options: { bin: string; cwd: string; env?: Record<string, string>; onCommand?: (command: string) => void }) => TerraformCli;

export interface RehearsalOptions {
  makeCli: MakeCli;
  env?: NodeJS.ProcessEnv;
  onCommand?: (command: string) => void;
  /** Keep the copy (tests look at it); default: removed. */
  keep?: boolean;
}

function record(step: ApplyStep): StepRecord {
  return { number: step.number, name: step.name, title: step.title, status: "done", commands: [], ran: 0, detail: "" };
}

function failureDetail(e: unknown): string {
  if (e instanceof StepFailedError) return e.detail;
  const err = e as { stderr?: unknown; stdout?: unknown; message?: unknown };
  const text = typeof err.stderr === "string" && err.stderr.trim() !== "" ? err.stderr : typeof err.stdout === "string" ? err.stdout : "";
  return text.trim();
}

/** Rehearses steps 3-7 on a copy; `ctx` is the dry run's context after the preflight. */
export async function rehearse(ctx: ApplyContext, options: RehearsalOptions): Promise<RehearsalReport> {
  const env = options.env ?? process.env;
  const providers = installedProviders(ctx.chdir, env);
  if (providers === null) {
    return {
      status: "skipped",
      detail: `no rehearsal: the root's providers are not installed (no .terraform/providers${env.TF_PLUGIN_CACHE_DIR ? ", nothing in TF_PLUGIN_CACHE_DIR" : " and no TF_PLUGIN_CACHE_DIR"}); run \`${ctx.terraform.flavor} init\` in the root to rehearse. This dry run is read-only`,
      steps: [],
      setup: [],
    };
  }
  const workspace = selectedWorkspace(ctx.chdir, env);
  const copy = makeRehearsalCopy(ctx.chdir, ctx.stateText, ctx.migration.edits.map((e) => e.absolute), workspace);
  const report: RehearsalReport = { status: "passed", detail: "", steps: [], setup: [] };
  let sink = report.setup;
  const inner = options.makeCli({
    bin: ctx.cli.bin,
    cwd: copy.root,
    // Its own data directory, and the user's workspace over the copy's local state (TF_WORKSPACE: the copy's
    // data directory has no `environment` file); nothing of the user's is used.
    env: { TF_DATA_DIR: copy.dataDir, TF_WORKSPACE: workspace === DEFAULT_WORKSPACE ? "" : workspace, TF_IN_AUTOMATION: "1" },
    ...(options.onCommand ? { onCommand: options.onCommand } : {}),
  });
  const cli = recordingCli(inner, () => sink);
  try {
    const init = await cli.run(["init", "-input=false", "-no-color", `-plugin-dir=${providers}`]);
    if (init.exitCode !== 0) {
      report.status = "failed";
      report.detail = `the rehearsal could not initialise its copy with the installed providers (${providers}): ${ctx.redact(init.stderr || init.stdout).trim()}`;
      return report;
    }
    const rctx: ApplyContext = {
      ...ctx,
      cli,
      chdir: copy.root,
      dryRun: false,
      backupPath: null,
      stateList: await stateList(cli),
      migration: { ...ctx.migration, edits: ctx.migration.edits.map((e) => ({ ...e, absolute: copy.map(e.absolute) })) },
    };
    const steps = [...REHEARSAL_STEPS];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const r = record(step);
      report.steps.push(r);
      sink = r.commands;
      try {
        const reason = await step.done(rctx);
        if (reason !== null) {
          r.status = "skipped";
          r.detail = reason;
        } else {
          const outcome = await step.run(rctx);
          r.status = outcome.status;
          r.detail = outcome.detail;
        }
      } catch (e) {
        const deferred = deferImport(steps, i, e, rctx);
        if (deferred !== null) {
          r.status = "deferred";
          r.detail = [deferred, ctx.redact(failureDetail(e))].filter((x) => x).join("\n");
          continue;
        }
        r.status = "failed";
        r.detail = [(e as Error).message, failureDetail(e)].filter((x) => x).join("\n");
        report.status = "failed";
        report.detail = `the rehearsal stopped at "${step.title}": the real run would stop there too`;
        break;
      } finally {
        r.ran = r.commands.length;
      }
    }
    const pending = report.status === "passed" ? pendingImportError(report.steps, rctx) : null;
    if (pending !== null) {
      report.status = "failed";
      report.importWaits = true;
      report.detail = `the rehearsal stopped with the import still to do: ${pending}`;
    }
    if (report.status === "passed") report.detail = `steps 3-7 ran on a copy of the root with the state as it is now; ${report.steps.at(-1)?.detail ?? ""}`;
    return report;
  } finally {
    if (!options.keep) rmSync(copy.dir, { recursive: true, force: true });
  }
}
