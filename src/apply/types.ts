// The shapes `cf-waf-migrate apply` works with: what the preflight computes (the migration of this root
// module), the context every step reads, one step's record, and the report (text or JSON).
import type { TerraformCli, TerraformFlavor } from "../terraform/runner/index.js";
import type { FileEdit } from "../terraform/edit/legacy-removal.js";

export type StepName = "backup" | "import" | "plan-check" | "state-rm" | "remove-blocks" | "final-plan";
/** `deferred`: the import failed only on a legacy data source read; it runs again after the blocks are gone (deferred-import.ts). */
export type StepStatus = "done" | "skipped" | "would-run" | "failed" | "deferred";

/** One import of a zone's entry point ruleset. */
export interface ImportTask {
  zoneId: string;
  /** `cloudflare_ruleset.<name>` in the root module. */
  to: string;
  /** `zone/<zone_id>/<ruleset_id>` (provider 5: `zones/…`). */
  id: string;
}

/** What this run has to do, computed once before any step runs (and re-checked by the steps). */
export interface Migration {
  /** Imports of the zones in scope, including those already in state (the step skips them). */
  imports: ImportTask[];
  /** Zones left out of the import, with the reason (shown by the import step). */
  importNotes: string[];
  /** Every legacy instance address to drop from state (resources and legacy data sources), sorted. */
  stateRemovals: string[];
  /** Config addresses (`module.waf.cloudflare_waf_group.off`) of the legacy blocks the edit deletes. */
  blockConfigAddresses: string[];
  /** Per-file edits removing the legacy blocks, computed from the files as they were read. */
  edits: FileEdit[];
  /** The edits as one unified diff (what `plan --out-dir` writes as legacy-removal.patch). */
  patch: string;
  /**
   * Why the blocks stay for now (another workspace or root still holds instances of them, or cannot be
   * read: shared-blocks.ts); null or absent: step 5 deletes them.
   */
  keepBlocks?: string | null;
}

/** Everything the steps read; steps update `stateList` and `backupPath` as they go. */
export interface ApplyContext {
  /** Runs terraform or tofu in `chdir`; every call is recorded in the current step's commands. */
  cli: TerraformCli;
  /** The root module terraform runs in (absolute). */
  chdir: string;
  /** The directory relative paths are shown against (the process's working directory). */
  cwd: string;
  dryRun: boolean;
  acceptChanges: boolean;
  terraform: { flavor: TerraformFlavor; version: string };
  /** `terraform state pull` output as read before anything changed (byte for byte). */
  stateText: string;
  /** The live state's addresses (`terraform state list`), kept current by the steps. */
  stateList: string[];
  migration: Migration;
  /** Masks secret-looking environment values in terraform output before it is shown. */
  redact: (text: string) => string;
  now: () => Date;
  backupPath: string | null;
}

/** What a step reports when it did not fail. */
export interface StepOutcome {
  status: "done" | "would-run";
  detail: string;
  /** Commands it would run (dry run), shown after the ones it ran. */
  wouldRun?: string[];
}

/** One step of the apply: its own module, a resume check and the work. */
export interface ApplyStep {
  number: number;
  name: StepName;
  title: string;
  /**
   * Why there is nothing left to do (a resumed run, or nothing to do at all), or null when the step must
   * run. May run read-only commands.
   */
  done(ctx: ApplyContext): Promise<string | null>;
  /** Does the step (or, in a dry run, its read-only part) and says what it did or would do; throws on failure. */
  run(ctx: ApplyContext): Promise<StepOutcome>;
}

export interface StepRecord {
  number: number;
  name: StepName;
  title: string;
  status: StepStatus;
  /** Command lines (shell-quoted) it ran, then those it would run in a dry run. */
  commands: string[];
  /** How many of `commands` really ran (the rest are what a real run would do). */
  ran: number;
  detail: string;
}

export interface ApplyError {
  /** The step that failed; null before the first step (refused preconditions, preflight failure). */
  step: StepName | null;
  message: string;
}

/** The dry run's rehearsal of steps 3-7 on a throwaway copy (rehearsal.ts). */
export interface RehearsalReport {
  /** passed: the final plan on the copy is clean; failed: a step stopped there; skipped: no rehearsal ran. */
  status: "passed" | "failed" | "skipped";
  detail: string;
  /** Commands that prepared the copy (init with the installed providers). */
  setup: string[];
  /** Steps 3-7 as they ran on the copy. */
  steps: StepRecord[];
  /** Set when it stopped only because the deferred import waits for blocks kept for other states (deferred-import.ts). */
  importWaits?: boolean;
}

export interface ApplyReport {
  schemaVersion: 1;
  dryRun: boolean;
  terraform: { flavor: TerraformFlavor; version: string } | null;
  /** The root module terraform ran in, relative to the working directory. */
  chdir: string;
  /** Read-only commands run before the first step (version, state pull, state list). */
  preflight: { commands: string[] };
  steps: StepRecord[];
  /** The state backup written by this run, relative to the working directory; null in a dry run. */
  backup: string | null;
  error: ApplyError | null;
  /** The dry run's rehearsal on a throwaway copy; null when not a dry run or --no-rehearsal. */
  rehearsal: RehearsalReport | null;
  /** Set when the legacy blocks are kept because other states may still hold them (shared-blocks.ts). */
  keptBlocks?: { reason: string; sharedFiles: string[]; callers: string[]; holders: string[]; unreadable: string[] };
  /** 0 done (or dry run fine), 1 stopped (a command failed, or changes remain), 2 refused or bad input. */
  exitCode: 0 | 1 | 2;
}
