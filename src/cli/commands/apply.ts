// `cf-waf-migrate apply`: runs the migration plan through terraform or tofu. A dry run unless --yes.
//
//   apply [PATH...] [--state FILE] [--terraform-bin BIN] [--yes] [--accept-changes] [--chdir DIR]
//         [--ruleset-id ZONE_ID=ID]... [--config-json ZONE_ID=FILE]... [--provider-major 4|5]
//         [--zone-plan ZONE_ID=PLAN]... [--format text|json] [--quiet] [--no-rehearsal]
//         [--remove-shared-blocks] [--accept-missing-skip-rules] [--accept-other-root-legacy-waf]
//
// Exit codes: 0 done (or the dry run is fine), 1 the migration stopped (a terraform command failed, or
// changes remain; run the same command again to continue), 2 refused or bad usage (nothing changed).
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { renderApplyHeader, renderApplyJson, renderApplyStep, renderApplySummary, runApply } from "../../apply/index.js";
import { makeStyle, shouldColor } from "../../render/style.js";
import { CliError } from "../errors.js";
import { readStdin } from "../io.js";
import { parsePairs, parseZonePlans, VAR_FILE_OPTION, VAR_OPTION, variableArgs, withExamples, withJsonFlag } from "../options.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";
import { completeWithService } from "../../online/enrich.js";

export interface ApplyArgs extends OnlineArgs {
  paths?: string[];
  state?: string | string[];
  "terraform-bin": string;
  yes: boolean;
  "accept-changes": boolean;
  "remove-shared-blocks": boolean;
  "accept-missing-skip-rules": boolean;
  "accept-other-root-legacy-waf": boolean;
  chdir?: string;
  workspace?: string;
  "ruleset-id": string[];
  "config-json": string[];
  "provider-major"?: number;
  "zone-plan": string[];
  format: string;
  quiet: boolean;
  rehearsal: boolean;
  "var-file"?: string[];
  var?: string[];
}

export const applyCommand: CommandModule<object, ApplyArgs> = {
  command: "apply [paths..]",
  describe: "Run the migration through terraform or tofu: backup, import, plan check, state rm, delete legacy blocks, plan (dry run unless --yes)",
  builder: (y: Argv) =>
    withExamples(withJsonFlag(withOnlineOptions(y)), [
      ["$0 apply --chdir infra", "dry run in the root module infra: what each step would do, read-only commands only"],
      ["$0 apply --chdir infra --yes --ruleset-id 0da42c8d2132a9ddaf714f9e7c920711=4814384a9e5d4991b9815dcfc25d2f1f", "run steps 3 to 7 for real, importing that entry point ruleset"],
    ])
      .positional("paths", { type: "string", array: true, describe: "directories or .tf/.tf.json files to scan (default: --chdir, else .)" })
      .option("state", { type: "string", describe: "read the inventory from this state file instead of `state pull` (terraform still uses its own backend); - reads stdin" })
      .option("terraform-bin", { type: "string", default: "terraform", describe: "terraform, tofu, or a path to either" })
      .option("yes", { type: "boolean", default: false, describe: "really change state and files (default: dry run, read-only commands only)" })
      .option("accept-changes", { type: "boolean", default: false, describe: "go on when the plan check shows changes to the imported ruleset" })
      .option("remove-shared-blocks", {
        type: "boolean",
        default: false,
        describe: "delete the legacy blocks even when another workspace of this root, or another root calling the same module, may still hold them (by default they are kept until the last one has migrated)",
      })
      .option("accept-missing-skip-rules", {
        type: "boolean",
        default: false,
        describe: "go on although another root of the repository has Page Rules or firewall rules bypassing the WAF for a zone this root migrates (or for a zone not known offline) and this root's ruleset has no skip rule for them (by default apply refuses)",
      })
      .option("accept-other-root-legacy-waf", {
        type: "boolean",
        default: false,
        describe: "go on although another root of the repository configures legacy WAF resources whose zone (or this root's) is not known offline, once you know it is another zone (a zone known to be this root's always refuses: plan the roots together)",
      })
      .option("chdir", { type: "string", describe: "DIR: switch to DIR first, as terraform -chdir does: the root module terraform runs in, every path relative to it (default: the single scanned directory)" })
      .option("workspace", { type: "string", describe: "the root's workspace to migrate (sets TF_WORKSPACE for every terraform call)" })
      .option("ruleset-id", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=RULESET_ID of the zone's http_request_firewall_managed entry point" })
      .option("config-json", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=FILE: saved `cf-waf-migrate api config` output" })
      .option("provider-major", { type: "number", choices: [4, 5], describe: "import id form (default: from the lock file, else 4)" })
      .option("zone-plan", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=enterprise|business|pro|free" })
      .option("format", { alias: "f", type: "string", choices: ["text", "json"], default: "text", describe: "text (steps as they run) or json (one document at the end)" })
      .option("quiet", { type: "boolean", default: false, describe: "no progress output on stderr" })
      .option("rehearsal", { type: "boolean", default: true, describe: "dry run: rehearse steps 3-7 on a throwaway copy with the installed providers (--no-rehearsal: read-only dry run only)" })
      .option(VAR_FILE_OPTION.name, VAR_FILE_OPTION.spec)
      .option(VAR_OPTION.name, VAR_OPTION.spec) as unknown as Argv<ApplyArgs>,
  handler: async (argv: ArgumentsCamelCase<ApplyArgs>) => {
    if (Array.isArray(argv.state)) throw new CliError("--state can be given once: apply reads one state");
    if (Array.isArray(argv.format) || Array.isArray(argv["terraform-bin"]) || Array.isArray(argv.chdir)) {
      throw new CliError("--format, --terraform-bin and --chdir can be given once");
    }
    const rulesetIds = parsePairs(argv["ruleset-id"], "ruleset-id");
    const session = onlineSessionFromArgs(argv);
    const zonePlans = parseZonePlans(argv["zone-plan"]);
    const configJson = parsePairs(argv["config-json"], "config-json");
    const json = argv.format === "json";
    const style = makeStyle(!json && shouldColor(process.stdout.isTTY === true, process.env));
    const progress = !argv.quiet && process.stderr.isTTY === true;

    const report = await runApply({
      ...(argv.paths?.length ? { paths: argv.paths } : {}),
      ...(argv.state !== undefined ? { stateFile: argv.state } : {}),
      ...(argv.chdir !== undefined ? { chdir: argv.chdir } : {}),
      ...(argv.workspace !== undefined ? { workspace: String(argv.workspace) } : {}),
      terraformBin: argv["terraform-bin"],
      yes: argv.yes,
      rehearsal: argv.rehearsal,
      acceptChanges: argv["accept-changes"],
      removeSharedBlocks: argv["remove-shared-blocks"],
      acceptMissingSkipRules: argv["accept-missing-skip-rules"],
      acceptOtherRootLegacyWaf: argv["accept-other-root-legacy-waf"],
      rulesetIds,
      zonePlans,
      configJson,
      variables: variableArgs(argv),
      ...(session ? { completeOptions: completeWithService(session) } : {}),
      ...(argv["provider-major"] !== undefined ? { providerMajor: argv["provider-major"] as 4 | 5 } : {}),
      readStdin,
      ...(progress ? { onCommand: (c: string) => process.stderr.write(`  running: ${c}\n`) } : {}),
      ...(json
        ? {}
        : {
            onPreflight: (r) => process.stdout.write(renderApplyHeader(r, style)),
            onStep: (s) => process.stdout.write(renderApplyStep(s, style)),
          }),
    });

    if (json) process.stdout.write(renderApplyJson(report));
    else if (report.exitCode === 2) process.stderr.write(`cf-waf-migrate: apply refused, nothing was changed: ${report.error?.message ?? ""}\n`);
    else process.stdout.write(renderApplySummary(report, style));
    process.exitCode = report.exitCode;
  },
};
