// `terraform state list [-state=FILE] [-id=ID] [ADDRESS...]`: the resource instance addresses exactly as
// Terraform prints them (module path, `[0]`, `["key"]` with HCL escapes).
import { assertAddress, runChecked, type TerraformCli } from "./cli.js";

export interface StateListOptions {
  /** Filter addresses (modules, resources or instances); Terraform fails if one matches nothing. */
  addresses?: readonly string[];
  /** A local state file instead of the configured backend. */
  state?: string;
  /** Only instances whose `id` attribute equals this. */
  id?: string;
}

export function stateListArgs(options: StateListOptions = {}): string[] {
  const args = ["state", "list"];
  if (options.state !== undefined) args.push(`-state=${options.state}`);
  if (options.id !== undefined) args.push(`-id=${options.id}`);
  for (const a of options.addresses ?? []) {
    assertAddress(a);
    args.push(a);
  }
  return args;
}

export async function stateList(cli: TerraformCli, options: StateListOptions = {}): Promise<string[]> {
  const result = await runChecked(cli, stateListArgs(options));
  return result.stdout.split(/\r?\n/).filter((line) => line !== "");
}
