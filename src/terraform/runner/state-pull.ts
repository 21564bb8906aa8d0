// `terraform state pull`: the current state as JSON (v4 layout), from whatever backend is configured.
import { runChecked, type TerraformCli } from "./cli.js";
import { TerraformOutputError } from "./errors.js";

export interface StatePullResult {
  /** The raw JSON text; "" when there is no state yet. */
  text: string;
  /** The parsed state, or null when there is none. */
  state: Record<string, unknown> | null;
}

export async function statePull(cli: TerraformCli): Promise<StatePullResult> {
  const result = await runChecked(cli, ["state", "pull"]);
  const text = result.stdout;
  if (text.trim() === "") return { text: "", state: null };
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (e) {
    throw new TerraformOutputError(result.command, `the state is not valid JSON (${(e as Error).message})`, text.slice(0, 200));
  }
  if (typeof state !== "object" || state === null || Array.isArray(state)) {
    throw new TerraformOutputError(result.command, "the state is not a JSON object", text.slice(0, 200));
  }
  return { text, state: state as Record<string, unknown> };
}
