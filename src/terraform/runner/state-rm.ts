// `terraform state rm [-dry-run] [-backup=PATH] [-state=FILE] ADDRESS...`.
// Dry run prints `Would remove ADDR` (or `Would have removed nothing.`, exit 0); a real run prints
// `Removed ADDR` lines and `Successfully removed N resource instance(s).`, and fails with exit 1 only
// when nothing matched at all. A resource address without a key removes all of its instances, a module
// address everything inside it, so the result lists what Terraform reported, instance by instance.
import { assertAddress, commandError, runChecked, type TerraformCli } from "./cli.js";

export interface StateRmOptions {
  /** `-dry-run`: print what would be removed, change nothing. */
  dryRun?: boolean;
  /** `-backup=PATH`; `false` passes `-backup=-` (no backup). Default: Terraform's own backup. */
  backup?: string | false;
  /** A local state file instead of the configured backend. */
  state?: string;
}

export interface StateRmResult {
  dryRun: boolean;
  /** Instance addresses Terraform reported as removed (or that it would remove), in its order. */
  removed: string[];
  /** Requested addresses that no reported address equals or lies under (compared as text). */
  unmatched: string[];
  stdout: string;
}

export function stateRmArgs(addresses: readonly string[], options: StateRmOptions = {}): string[] {
  if (addresses.length === 0) throw new TypeError("state rm needs at least one address");
  const args = ["state", "rm"];
  if (options.dryRun) args.push("-dry-run");
  if (options.backup === false) args.push("-backup=-");
  else if (options.backup !== undefined) args.push(`-backup=${options.backup}`);
  if (options.state !== undefined) args.push(`-state=${options.state}`);
  for (const a of addresses) {
    assertAddress(a);
    args.push(a);
  }
  return args;
}

function covers(requested: string, reported: string): boolean {
  if (reported === requested) return true;
  if (!reported.startsWith(requested)) return false;
  const next = reported[requested.length];
  return next === "[" || next === ".";
}

export async function stateRm(cli: TerraformCli, addresses: readonly string[], options: StateRmOptions = {}): Promise<StateRmResult> {
  const dryRun = options.dryRun === true;
  const result = await runChecked(cli, stateRmArgs(addresses, options));
  const prefix = dryRun ? "Would remove " : "Removed ";
  const lines = result.stdout.split(/\r?\n/);
  const removed = lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
  if (!dryRun && !lines.some((l) => /^Successfully removed \d+ resource instance\(s\)\.$/.test(l))) {
    throw commandError(result, "exit code 0 but no \"Successfully removed\" line: the state may not have been written");
  }
  const unmatched = addresses.filter((a) => !removed.some((r) => covers(a, r)));
  return { dryRun, removed, unmatched, stdout: result.stdout };
}
