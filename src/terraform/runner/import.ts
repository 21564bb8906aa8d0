// `terraform import -input=false -no-color [-state=FILE] ADDRESS ID`, e.g.
// `terraform import cloudflare_ruleset.waf zone/<zone_id>/<ruleset_id>` (provider 5: `zones/…`).
// Fails (exit 1) when the address is already in state: "Resource already managed by Terraform".
import { assertAddress, runChecked, type TerraformCli } from "./cli.js";

export interface ImportOptions {
  /** A local state file instead of the configured backend. */
  state?: string;
  /** `-var-file=…` arguments, when the configuration needs them to evaluate. */
  varFiles?: readonly string[];
}

export interface ImportResult {
  address: string;
  id: string;
  stdout: string;
}

export function importArgs(address: string, id: string, options: ImportOptions = {}): string[] {
  assertAddress(address);
  if (id === "" || id.startsWith("-")) throw new TypeError(`not an import id: ${JSON.stringify(id)}`);
  const args = ["import", "-input=false", "-no-color"];
  if (options.state !== undefined) args.push(`-state=${options.state}`);
  for (const f of options.varFiles ?? []) args.push(`-var-file=${f}`);
  args.push(address, id);
  return args;
}

export async function importResource(cli: TerraformCli, address: string, id: string, options: ImportOptions = {}): Promise<ImportResult> {
  const result = await runChecked(cli, importArgs(address, id, options));
  return { address, id, stdout: result.stdout };
}
