// The apply orchestration: preflight (read-only, every precondition), then the six steps in order, each
// skipped when its `done` check says a previous run finished it. The first failure stops the run; the
// report says what was done, what failed, and that running the same command again continues.
//
// Without `yes` (dry run) only read-only commands run (version, state pull, state list, state rm
// -dry-run) and no file is written; every step says what it would do.
import { repositoryTreeReader } from "../estate/repository-tree.js";
import type { VariableArgs } from "../terraform/config/tfvars.js";
import path from "node:path";
import type { ZonePlan } from "../core/model.js";
import {
  createTerraformCli,
  recordingCli,
  secretRedactor,
  TerraformError,
  TerraformNotFoundError,
  TerraformOutputError,
  type TerraformCli,
} from "../terraform/runner/index.js";
import { backupStep, display } from "./backup.js";
import { ApplyRefusedError, StepFailedError } from "./errors.js";
import { finalPlanStep } from "./final-plan.js";
import { importStep } from "./import.js";
import { deferImport, pendingImportError } from "./deferred-import.js";
import { planCheckStep } from "./plan-check.js";
import { legacyResourcesOf, preflight, resolveChdir, type PreflightInput } from "./preflight.js";
import { selectedWorkspace } from "./rehearsal-workspace.js";
import { blockHolders, keepBlocksReason } from "./shared-blocks.js";
import { rehearse } from "./rehearsal.js";
import { removeBlocksStep } from "./remove-blocks.js";
import { stateRmStep } from "./state-rm.js";
import type { ApplyContext, ApplyReport, ApplyStep, StepRecord } from "./types.js";

/** The steps, in the only order that is safe: state entries leave before their blocks do. */
export const APPLY_STEPS: readonly ApplyStep[] = [backupStep, importStep, planCheckStep, stateRmStep, removeBlocksStep, finalPlanStep];

export interface ApplyOptions {
  /** Directories or files to scan; default: the root module (--chdir), else `.`. */
  paths?: string[];
  /** --state FILE: the inventory's state instead of `state pull` (terraform still uses its backend). */
  stateFile?: string;
  /** The root module terraform runs in; default: the single scanned directory. */
  chdir?: string;
  /** The workspace of the root to migrate (TF_WORKSPACE for every terraform call); default: terraform's own selection. */
  workspace?: string;
  /** `terraform` (default), `tofu`, or a path. */
  terraformBin?: string;
  /** Without it, a dry run. */
  yes?: boolean;
  /** Go on when the plan check shows changes to the imported ruleset. */
  acceptChanges?: boolean;
  rulesetIds?: Record<string, string>;
  zonePlans?: Record<string, ZonePlan>;
  /** --config-json ZONE_ID=FILE. */
  configJson?: Record<string, string>;
  providerMajor?: 4 | 5;
  /** `--var-file` / `--var`: root variable values for what config alone knows. */
  variables?: VariableArgs;
  /** `--online`: completes the analysis options with what the service says (src/online). */
  completeOptions?: PreflightInput["completeOptions"];
  /** Default process.cwd(). */
  cwd?: string;
  readStdin?: () => Promise<Buffer>;
  /** Builds the terraform runner (tests wrap the real one); default createTerraformCli. */
  createCli?: (options: { bin: string; cwd: string; env?: Record<string, string>; onCommand?: (command: string) => void }) => TerraformCli;
  /**
   * Delete legacy blocks even when another workspace or root may still hold instances of them (the user
   * knows those states hold nothing); default: keep them then (shared-blocks.ts).
   */
  removeSharedBlocks?: boolean;
  /**
   * Go on although another root of the repository has Page Rules or firewall rules bypassing the WAF for a
   * zone this root migrates (or one not known offline) and this root's ruleset lacks their skip rules.
   */
  acceptMissingSkipRules?: boolean;
  /** Go on although another root configures legacy WAF resources whose zone (or this root's) is not known offline. */
  acceptOtherRootLegacyWaf?: boolean;
  /** Dry run only: rehearse steps 3-7 on a throwaway copy (default true; `--no-rehearsal` turns it off). */
  rehearsal?: boolean;
  /** Called with each command line before it runs (progress output). */
  onCommand?: (command: string) => void;
  /** Called once the preflight has passed, with the report so far. */
  onPreflight?: (report: ApplyReport) => void;
  /** Called as each step finishes (or fails). */
  onStep?: (step: StepRecord, report: ApplyReport) => void;
  now?: () => Date;
}

const RULESET_ID = /^[0-9a-f]{32}$/i;
/** What `terraform workspace new` accepts. */
const WORKSPACE_NAME = /^[A-Za-z0-9_-]+$/;

export async function runApply(options: ApplyOptions = {}): Promise<ApplyReport> {
  const cwd = options.cwd ?? process.cwd();
  const dryRun = options.yes !== true;
  const report: ApplyReport = {
    schemaVersion: 1,
    dryRun,
    terraform: null,
    chdir: options.chdir ?? (options.paths?.length === 1 ? options.paths[0]! : "."),
    preflight: { commands: [] },
    steps: [],
    backup: null,
    error: null,
    rehearsal: null,
    exitCode: 0,
  };

  let sink: string[] = report.preflight.commands;
  let ctx: ApplyContext;
  try {
    const bad = Object.entries(options.rulesetIds ?? {}).filter(([, id]) => !RULESET_ID.test(id));
    if (bad.length) throw new ApplyRefusedError(bad.map(([zone, id]) => `--ruleset-id ${zone}=${id}: a ruleset id is 32 hexadecimal characters`));
    const chdir = await resolveChdir(options.chdir, options.paths?.length ? options.paths : ["."], cwd);
    report.chdir = display({ cwd }, chdir);
    const paths = options.paths?.length ? options.paths : [chdir];
    let bin = options.terraformBin ?? "terraform";
    // A relative path names a file from here, not from the root module terraform runs in.
    if (bin.includes("/") && !path.isAbsolute(bin)) bin = path.resolve(cwd, bin);
    const make = options.createCli ?? ((o) => createTerraformCli(o));
    if (options.workspace !== undefined && !WORKSPACE_NAME.test(options.workspace)) throw new ApplyRefusedError([`--workspace ${JSON.stringify(options.workspace)}: not a workspace name (letters, digits, - and _)`]);
    const onCommand = options.onCommand ? { onCommand: options.onCommand } : {};
    const cli = recordingCli(make({ bin, cwd: chdir, ...(options.workspace !== undefined ? { env: { TF_WORKSPACE: options.workspace } } : {}), ...onCommand }), () => sink);
    // The repository around the root is read once for both searches (other roots' rules, other callers).
    const repositoryTree = repositoryTreeReader();
    const pre = await preflight({
      cli,
      repositoryTree,
      paths,
      ...(options.stateFile !== undefined ? { stateFile: options.stateFile } : {}),
      cwd,
      readStdin: options.readStdin ?? (async () => Buffer.alloc(0)),
      rulesetIds: options.rulesetIds ?? {},
      zonePlans: options.zonePlans ?? {},
      configJson: options.configJson ?? {},
      ...(options.variables ? { variables: options.variables } : {}),
      ...(options.completeOptions ? { completeOptions: options.completeOptions } : {}),
      ...(options.providerMajor !== undefined ? { providerMajor: options.providerMajor } : {}),
      workspace: options.workspace ?? selectedWorkspace(chdir),
      ...(options.acceptMissingSkipRules ? { acceptMissingSkipRules: true } : {}),
      ...(options.acceptOtherRootLegacyWaf ? { acceptOtherRootLegacyWaf: true } : {}),
    });
    report.terraform = { flavor: pre.terraform.flavor, version: pre.terraform.version };
    if (pre.migration.edits.length > 0 && options.removeSharedBlocks !== true) {
      const holders = await blockHolders({
        chdir,
        repositoryTree,
        cwd,
        workspace: options.workspace ?? selectedWorkspace(chdir),
        edits: pre.migration.edits,
        legacyResources: legacyResourcesOf(pre.migration),
        pull: {
          bin,
          createCli: (o) => recordingCli(make({ bin: o.bin, cwd: o.cwd, env: o.env, ...onCommand }), () => sink),
        },
      });
      const reason = keepBlocksReason(holders);
      pre.migration.keepBlocks = reason;
      if (reason !== null) report.keptBlocks = { reason, ...holders };
    }
    ctx = {
      cli,
      chdir,
      cwd,
      dryRun,
      acceptChanges: options.acceptChanges === true,
      terraform: report.terraform,
      stateText: pre.stateText,
      stateList: pre.stateList,
      migration: pre.migration,
      redact: secretRedactor(process.env),
      now: options.now ?? (() => new Date()),
      backupPath: null,
    };
  } catch (e) {
    // A binary that cannot start, or a state it cannot read, is bad input (2); a command that failed stops the run (1).
    if (e instanceof ApplyRefusedError || e instanceof TerraformNotFoundError || e instanceof TerraformOutputError) {
      report.error = { step: null, message: e.message };
      report.exitCode = 2;
      return report;
    }
    if (e instanceof TerraformError) {
      report.error = { step: null, message: e.message };
      report.exitCode = 1;
      return report;
    }
    throw e;
  }
  options.onPreflight?.(report);

  const steps = [...APPLY_STEPS];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const record: StepRecord = { number: step.number, name: step.name, title: step.title, status: "done", commands: [], ran: 0, detail: "" };
    sink = record.commands;
    report.steps.push(record);
    try {
      const reason = await step.done(ctx);
      if (reason !== null) {
        record.status = "skipped";
        record.detail = reason;
        record.ran = record.commands.length;
      } else {
        const outcome = await step.run(ctx);
        record.status = outcome.status;
        record.detail = outcome.detail;
        record.ran = record.commands.length;
        record.commands.push(...(outcome.wouldRun ?? []));
      }
    } catch (e) {
      record.ran = record.commands.length;
      const deferred = deferImport(steps, i, e, ctx);
      if (deferred !== null) {
        record.status = "deferred";
        record.detail = `${deferred}\n${ctx.redact(failureDetail(e))}`;
      } else {
        record.status = "failed";
        record.detail = failureDetail(e);
        report.error = { step: step.name, message: (e as Error).message };
        report.exitCode = 1;
      }
    }
    if (ctx.backupPath) report.backup = display(ctx, ctx.backupPath);
    options.onStep?.(record, report);
    if (record.status === "failed") break;
  }
  const pending = report.error === null ? pendingImportError(report.steps, ctx) : null;
  if (pending !== null) {
    report.error = { step: "import", message: pending };
    report.exitCode = 1;
  }
  if (dryRun && report.exitCode === 0 && options.rehearsal !== false) {
    const make = options.createCli ?? ((o) => createTerraformCli(o));
    // --workspace is the selection the rehearsal's copy must plan in, as every real call uses it.
    const env = options.workspace !== undefined ? { ...process.env, TF_WORKSPACE: options.workspace } : process.env;
    report.rehearsal = await rehearse(ctx, { makeCli: make, env, ...(options.onCommand ? { onCommand: options.onCommand } : {}) });
    // The real run would stop where the rehearsal stopped.
    if (report.rehearsal.status === "failed") report.exitCode = 1;
  }
  return report;
}

function failureDetail(e: unknown): string {
  if (e instanceof StepFailedError) return e.detail;
  const err = e as { stderr?: unknown; stdout?: unknown };
  const text = typeof err.stderr === "string" && err.stderr.trim() !== "" ? err.stderr : typeof err.stdout === "string" ? err.stdout : "";
  return text.trim();
}
