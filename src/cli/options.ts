// Options shared by the commands, and their parsing into typed values.
import type { Argv } from "yargs";
import type { FailOn, ZonePlan } from "../core/model.js";
import { CliError, EXIT_CODES_EPILOGUE } from "./errors.js";
import { inputRecord } from "../core/null-proto.js";

export const FORMATS = ["text", "json", "markdown", "sarif", "junit", "shell", "html", "checkstyle", "compact"] as const;
export type Format = (typeof FORMATS)[number];

export interface CommonArgs {
  paths: string[];
  state: string[];
  format: string[];
  output?: string;
  "fail-on"?: string;
  "zone-plan": string[];
  debug: boolean;
  quiet: boolean;
  /** Hidden: read every file with hcl2json (the slow reference path the fast reader is tested against). */
  "full-parse"?: boolean;
  /** `--var-file FILE` (repeatable): root variable values, after the roots' own tfvars files. */
  "var-file"?: string[];
  /** `--var NAME=VALUE` (repeatable): root variable values, after every --var-file. */
  var?: string[];
  /** `--ruleset-root ZONE_ID=ROOT` (repeatable): the root that gets a split zone's ruleset. */
  "ruleset-root"?: string[];
}

/** `--var-file` / `--var`: what the commands that read configuration accept to evaluate it offline. */
export const VAR_FILE_OPTION = {
  name: "var-file",
  spec: { type: "string", array: true, default: [] as string[], describe: "FILE of root variable values (.tfvars or .tfvars.json), after terraform.tfvars and *.auto.tfvars; repeatable" },
} as const;
export const VAR_OPTION = {
  name: "var",
  spec: { type: "string", array: true, default: [] as string[], describe: "NAME=VALUE: a root variable value, after every --var-file; repeatable" },
} as const;

export function variableArgs(argv: { "var-file"?: string[]; var?: string[] }): { varFiles: string[]; vars: string[] } {
  return { varFiles: (argv["var-file"] ?? []).map(String), vars: (argv.var ?? []).map(String) };
}

export function withInputOptions<T>(y: Argv<T>) {
  return y
    .positional("paths", { type: "string", array: true, default: ["."], describe: "directories or .tf/.tf.json files to scan" })
    .option("state", { type: "string", array: true, default: [] as string[], describe: "state file (terraform.tfstate, `state pull` or `show -json` output); - reads stdin" })
    .option("zone-plan", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=enterprise|business|pro|free: the zone's plan when Terraform does not say" })
    .option("quiet", { type: "boolean", default: false, describe: "no progress output on stderr" })
    .option("full-parse", { type: "boolean", default: false, hidden: true, describe: "read every file with hcl2json (slow reference path)" })
    .option(VAR_FILE_OPTION.name, VAR_FILE_OPTION.spec)
    .option(VAR_OPTION.name, VAR_OPTION.spec)
    .option("ruleset-root", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=ROOT: the root module that gets the entry point ruleset of a zone split across roots" });
}

export function withOutputOptions<T>(y: Argv<T>, formats: readonly Format[], failOnDefault: FailOn) {
  return y
    .option("format", {
      alias: "f",
      type: "string",
      array: true,
      default: [] as string[],
      describe: `${formats.join("|")}; repeat as FORMAT=FILE to write several at once (default: text on a terminal, json otherwise)`,
    })
    .option("output", { alias: "o", type: "string", describe: "write the report to FILE instead of stdout" })
    // No yargs default: parseFailOn supplies it, so an explicit --fail-on can be told from the default.
    .option("fail-on", { type: "string", choices: ["error", "warning", "info", "never"], defaultDescription: failOnDefault, describe: "exit 1 when a finding is at or above this severity" })
    .option("json", { type: "boolean", describe: "same as --format json" })
    .option("minimum-failure-severity", { type: "string", choices: Object.keys(TFLINT_SEVERITY), describe: "TFLint's spelling of --fail-on (notice is info)" })
    .middleware((argv) => applyOutputSynonyms(argv as unknown as OutputSynonyms), true);
}

/** TFLint's --minimum-failure-severity values and the --fail-on level each one means. */
export const TFLINT_SEVERITY: Readonly<Record<string, FailOn>> = { error: "error", warning: "warning", notice: "info" };

interface OutputSynonyms {
  format: string[];
  json?: boolean;
  "fail-on"?: string;
  "minimum-failure-severity"?: string;
}

/** `--json` adds `--format json`; `--minimum-failure-severity` sets `--fail-on` (both given, they must agree). */
export function applyOutputSynonyms(argv: OutputSynonyms): void {
  if (argv.json) argv.format = [...(argv.format ?? []), "json"];
  const tflint = argv["minimum-failure-severity"];
  if (tflint === undefined) return;
  const level = Object.hasOwn(TFLINT_SEVERITY, tflint) ? TFLINT_SEVERITY[tflint]! : undefined;
  if (level === undefined) throw new CliError(`--minimum-failure-severity ${tflint}: not one of ${Object.keys(TFLINT_SEVERITY).join(", ")}`);
  if (argv["fail-on"] !== undefined && argv["fail-on"] !== level) {
    throw new CliError(`--minimum-failure-severity ${tflint} means --fail-on ${level}, but --fail-on ${argv["fail-on"]} was given too: give one of them`);
  }
  argv["fail-on"] = level;
}

/** `--json` for the commands whose `--format` takes one value (apply, api): `--format json`. */
export function withJsonFlag<T>(y: Argv<T>): Argv<T> {
  return y.option("json", { type: "boolean", describe: "same as --format json" }).middleware((argv) => {
    const a = argv as { json?: boolean; format?: unknown };
    if (!a.json) return;
    if (a.format !== undefined && a.format !== "json" && a.format !== "text") throw new CliError(`--json and --format ${String(a.format)} contradict each other: give one of them`);
    a.format = "json";
  }, true);
}

/** A command's --help: two or three real examples, then the exit codes. */
export function withExamples<T>(y: Argv<T>, examples: readonly (readonly [string, string])[]): Argv<T> {
  for (const [command, description] of examples) y = y.example(command, description);
  return y.epilogue(EXIT_CODES_EPILOGUE);
}

/** `ZONE_ID=VALUE` pairs (repeatable options). */
export function parsePairs(values: string[], option: string): Record<string, string> {
  const out = inputRecord<string>();
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
  const out = inputRecord<ZonePlan>();
  for (const [zone, plan] of Object.entries(pairs)) {
    const p = plan.toLowerCase() as ZonePlan;
    if (!PLANS.includes(p)) throw new CliError(`--zone-plan ${zone}=${plan}: the plan must be one of ${PLANS.join(", ")}`);
    out[zone] = p;
  }
  return out;
}

export interface OutputTarget {
  format: Format;
  /** null: standard output. */
  file: string | null;
}

/**
 * `--format F` (one format, to --output or stdout) or repeated `--format F=FILE` (several reports from one
 * run, as CI jobs need SARIF, JUnit and JSON together). At most one target may go to stdout.
 */
export function resolveOutputs(formats: string[], output: string | undefined, allowed: readonly Format[], stdoutIsTTY: boolean): OutputTarget[] {
  const toFile = output !== undefined && output !== "-";
  const entries = formats.length ? formats : [stdoutIsTTY && !toFile ? "text" : "json"];
  const targets: OutputTarget[] = [];
  for (const entry of entries) {
    const eq = entry.indexOf("=");
    const name = (eq === -1 ? entry : entry.slice(0, eq)).trim();
    const file = eq === -1 ? null : entry.slice(eq + 1).trim();
    if (!(allowed as readonly string[]).includes(name)) {
      throw new CliError(`--format ${name}: not one of ${allowed.join(", ")}`);
    }
    if (file === "") throw new CliError(`--format ${entry}: the file name after "=" is empty`);
    targets.push({ format: name as Format, file: file === "-" ? null : file });
  }
  const bare = targets.filter((t) => t.file === null);
  if (bare.length > 1) throw new CliError("only one --format can go to standard output; give the others as FORMAT=FILE");
  if (toFile) {
    if (bare.length === 0) throw new CliError("--output goes with a --format that has no =FILE");
    bare[0]!.file = output!;
  }
  return targets;
}

export function parseFailOn(v: string | undefined, fallback: FailOn): FailOn {
  return (v as FailOn | undefined) ?? fallback;
}
