// `terraform version -json` / `tofu version -json`, with a fallback to the text output (Terraform < 0.13
// has no -json). OpenTofu's JSON uses the same `terraform_version` key but has no `terraform_outdated`
// field, so when that field is missing the text output (`OpenTofu v1.9.0`) settles which binary it is.
import { commandError, type TerraformCli } from "./cli.js";
import { TerraformOutputError } from "./errors.js";

export type TerraformFlavor = "terraform" | "tofu";

export interface TerraformVersionInfo {
  flavor: TerraformFlavor;
  /** `1.11.4`, `1.12.0-alpha20250319` (no `v`). */
  version: string;
  /** `linux_amd64`, when printed. */
  platform: string | null;
  /** Which output the version came from. */
  source: "json" | "text";
}

/** Reads `Terraform v1.11.4` / `OpenTofu v1.9.0` and `on linux_amd64` from the text output. */
export function parseVersionText(text: string): Omit<TerraformVersionInfo, "source"> | null {
  const m = /^(Terraform|OpenTofu) v(\S+)/m.exec(text);
  if (!m) return null;
  const platform = /^on (\S+)/m.exec(text);
  return { flavor: m[1] === "OpenTofu" ? "tofu" : "terraform", version: m[2]!, platform: platform ? platform[1]! : null };
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function detectVersion(cli: TerraformCli): Promise<TerraformVersionInfo> {
  const json = await cli.run(["version", "-json"]);
  const obj = json.exitCode === 0 ? parseJson(json.stdout) : null;
  if (obj && typeof obj["terraform_version"] === "string") {
    const version = obj["terraform_version"];
    const platform = typeof obj["platform"] === "string" ? obj["platform"] : null;
    if ("terraform_outdated" in obj) return { flavor: "terraform", version, platform, source: "json" };
    const text = await cli.run(["version"]);
    const parsed = text.exitCode === 0 ? parseVersionText(text.stdout) : null;
    return { flavor: parsed?.flavor ?? "tofu", version, platform, source: "json" };
  }
  const text = await cli.run(["version"]);
  if (text.exitCode !== 0) throw commandError(text);
  const parsed = parseVersionText(text.stdout);
  if (!parsed) throw new TerraformOutputError(text.command, "cannot read a Terraform or OpenTofu version in the output", text.stdout);
  return { ...parsed, source: "text" };
}
