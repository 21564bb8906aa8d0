// Options shared by the commands, and their parsing into typed values.
import type { Argv } from "yargs";
import type { FailOn, ZonePlan } from "../core/model.js";
import { CliError } from "./errors.js";

export const FORMATS = ["text", "json", "markdown", "sarif", "junit", "shell"] as const;
export type Format = (typeof FORMATS)[number];

export interface CommonArgs {
  paths: string[];
  state: string[];
  format?: string;
  output?: string;
  "fail-on"?: string;
  "zone-plan": string[];
  debug: boolean;
  quiet: boolean;
}

export function withInputOptions<T>(y: Argv<T>) {
  return y
    .positional("paths", { type: "string", array: true, default: ["."], describe: "directories or .tf/.tf.json files to scan" })
    .option("state", { type: "string", array: true, default: [] as string[], describe: "state file (terraform.tfstate, `state pull` or `show -json` output); - reads stdin" })
    .option("zone-plan", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=enterprise|business|pro|free: the zone's plan when Terraform does not say" })
    .option("quiet", { type: "boolean", default: false, describe: "no progress output on stderr" });
}

export function withOutputOptions<T>(y: Argv<T>, formats: readonly Format[], failOnDefault: FailOn) {
  return y
    .option("format", { type: "string", choices: formats as unknown as string[], describe: "output format (default: text on a terminal, json otherwise)" })
    .option("output", { alias: "o", type: "string", describe: "write the report to FILE instead of stdout" })
    .option("fail-on", { type: "string", choices: ["error", "warning", "info", "never"], default: failOnDefault, describe: "exit 1 when a finding is at or above this severity" });
}

/** `ZONE_ID=VALUE` pairs (repeatable options). */
export function parsePairs(values: string[], option: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf("=");
    if (i <= 0 || i === v.length - 1) throw new CliError(`--${option} expects ZONE_ID=VALUE, got ${JSON.stringify(v)}`);
    out[v.slice(0, i).trim()] = v.slice(i + 1).trim();
  }
  return out;
}

const PLANS: ZonePlan[] = ["enterprise", "business", "pro", "free"];

export function parseZonePlans(values: string[]): Record<string, ZonePlan> {
  const pairs = parsePairs(values, "zone-plan");
  const out: Record<string, ZonePlan> = {};
  for (const [zone, plan] of Object.entries(pairs)) {
    const p = plan.toLowerCase() as ZonePlan;
    if (!PLANS.includes(p)) throw new CliError(`--zone-plan ${zone}=${plan}: the plan must be one of ${PLANS.join(", ")}`);
    out[zone] = p;
  }
  return out;
}

export function resolveFormat(requested: string | undefined, stdoutIsTTY: boolean, toFile: boolean): Format {
  if (requested) return requested as Format;
  return stdoutIsTTY && !toFile ? "text" : "json";
}

export function parseFailOn(v: string | undefined, fallback: FailOn): FailOn {
  return (v as FailOn | undefined) ?? fallback;
}
