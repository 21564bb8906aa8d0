// `terraform plan -detailed-exitcode [-refresh=false] -input=false -no-color`.
// Exit 0 = no changes, 2 = changes present, anything else = error. `-refresh=false` is what step 4 of
// the migration needs once the legacy WAF API is gone (a refresh of cloudflare_waf_* fails then).
import { commandError, type TerraformCli } from "./cli.js";

export interface PlanOptions {
  /** false adds `-refresh=false`. Default true. */
  refresh?: boolean;
  /** `-target=…` addresses. */
  targets?: readonly string[];
  /** `-out=FILE` to save the plan. */
  out?: string;
  /** `-var-file=…` arguments. */
  varFiles?: readonly string[];
}

export interface PlanResult {
  changes: boolean;
  stdout: string;
  stderr: string;
}

export function planArgs(options: PlanOptions = {}): string[] {
  const args = ["plan", "-detailed-exitcode"];
  if (options.refresh === false) args.push("-refresh=false");
  args.push("-input=false", "-no-color");
  for (const t of options.targets ?? []) args.push(`-target=${t}`);
  for (const f of options.varFiles ?? []) args.push(`-var-file=${f}`);
  if (options.out !== undefined) args.push(`-out=${options.out}`);
  return args;
}

export async function plan(cli: TerraformCli, options: PlanOptions = {}): Promise<PlanResult> {
  const result = await cli.run(planArgs(options));
  if (result.exitCode === 0 || result.exitCode === 2) {
    return { changes: result.exitCode === 2, stdout: result.stdout, stderr: result.stderr };
  }
  throw commandError(result, result.timedOut ? "timed out" : undefined);
}

/**
 * True when a plan with changes (exit 2) changes root module outputs only: Terraform (and OpenTofu) then
 * says it can "save these new output values to the … state, without changing any real infrastructure",
 * and prints no `Plan:` summary of resource actions. Removing an output that exposed a legacy block gives
 * exactly this plan; applying it changes nothing outside the state.
 */
export function onlyOutputChanges(stdout: string): boolean {
  return /without changing any real infrastructure/.test(stdout) && !/^Plan: \d+ to /m.test(stdout);
}

/**
 * True when a plan with changes (exit 2) only moves resource addresses, with root output changes or not:
 * `moved` blocks, or terraform's implicit `x` → `x[0]` when a user adds `count`. Terraform's summary counts
 * every resource action (add, change, destroy, import, forget) and is all zeros; the only action headers it
 * does not count are moves and data reads, and every header here must be a move (`# A has moved to B`).
 * A move combined with an update shows `will be updated in-place` (counted), and is refused. Applying such a
 * plan rewrites addresses in the state and changes nothing in Cloudflare. `stdout` without colour.
 */
export function onlyAddressMoves(stdout: string): boolean {
  if (!/^Plan: 0 to add, 0 to change, 0 to destroy\.$/m.test(stdout)) return false;
  const headers = stdout.split(/\r?\n/).filter((l) => l.startsWith("  # "));
  return headers.length > 0 && headers.every((l) => /^ {2}# \S.* has moved to \S.*$/.test(l) && !/ will be read during apply$/.test(l));
}

/** `terraform apply -input=false -no-color PLANFILE`: applies exactly a plan saved with `-out`, no prompt. */
export function applySavedPlanArgs(planFile: string): string[] {
  return ["apply", "-input=false", "-no-color", planFile];
}

export async function applySavedPlan(cli: TerraformCli, planFile: string): Promise<{ stdout: string; stderr: string }> {
  const result = await cli.run(applySavedPlanArgs(planFile));
  if (result.exitCode === 0) return { stdout: result.stdout, stderr: result.stderr };
  throw commandError(result, result.timedOut ? "timed out" : undefined);
}
