// `cf-waf-migrate plan`: the replacement ruleset, its import, and the seven-step plan with dry-run state
// removal, as a report and (with --out-dir) as files a person reviews and runs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import type { InputError, Report, Ruleset } from "../../core/model.js";
import { ESTATE_MD, writeEstatePlans } from "../../plan/estate-out-dir.js";
import { estateWritten } from "../../plan/written-notice.js";
import { planEstate } from "../../plan/estate-plan.js";
import { joinFindingsOf } from "../../estate/analyze.js";
import { renderMarkdown } from "../../render/markdown.js";
import { loadCliEstate, rulesetRootsOf } from "../workspace.js";
import { checkReportFile, checkWritableDirectory, relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parsePairs, parseZonePlans, resolveOutputs, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor, writeReportInputErrors } from "../report-output.js";
import { parseEstateRun, withEstateOptions, recordShard, writeSummaryFile, type EstateRunArgs } from "../estate-run.js";
import { CliError } from "../errors.js";
import { readServiceConfig } from "../../terraform/config/service-config.js";
import { extractManagedRulesets, type ExtractedRuleset } from "../../terraform/cf-terraforming/read.js";
import { artifactNames, scriptInput, writeArtifacts } from "../../plan/artifacts.js";
import { renderPlanMarkdown } from "../../plan/plan-markdown.js";
import { renderMigrateScript } from "../../plan/migrate-script.js";
import { plannedStateNote, plannedStateOf, scriptWorkspace } from "../../plan/planned-state.js";
import { inputRecord } from "../../core/null-proto.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";
import { boundHeapGrowth } from "../v8-heap.js";

const FORMATS = ["text", "json", "markdown", "shell", "html"] as const;

export interface PlanArgs extends EstateRunArgs, CommonArgs, OnlineArgs {
  "ruleset-id": string[];
  "config-json": string[];
  "provider-major"?: number;
  "from-cf-terraforming"?: string;
  "out-dir"?: string;
  force: boolean;
}

export const planCommand: CommandModule<object, PlanArgs> = {
  command: "plan [paths..]",
  describe: "Generate the replacement cloudflare_ruleset, its import and the seven-step migration plan",
  builder: (y: Argv) =>
    withExamples(withEstateOptions(withOnlineOptions(withOutputOptions(withInputOptions(y), FORMATS, "never"))), [
      ["$0 plan . --state terraform.tfstate --out-dir migration", "write ruleset.tf, imports.tf, migrate.sh, PLAN.md and the patches to migration/"],
      ["$0 plan . --state terraform.tfstate --config-json 0da42c8d2132a9ddaf714f9e7c920711=config.json", "build the ruleset from the service's saved configuration (api config)"],
      ["$0 plan --chdir infra --format markdown -o PLAN.md", "the plan as Markdown for a pull request, run in infra"],
    ])
      .option("ruleset-id", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=RULESET_ID of the zone's http_request_firewall_managed entry point" })
      .option("config-json", { type: "string", array: true, default: [] as string[], describe: "ZONE_ID=FILE: saved `cf-waf-migrate api config` output; the ruleset is then exactly the service's" })
      .option("provider-major", { type: "number", choices: [4, 5], describe: "ruleset syntax and import id form (default: from the lock file or constraint, else 4)" })
      .option("from-cf-terraforming", { type: "string", describe: "cf-terraforming generate output: keep its http_request_firewall_managed ruleset (step 2)" })
      .option("out-dir", { type: "string", describe: "write ruleset.tf, imports.tf, migrate.sh, PLAN.md, report.json and the patches here" })
      .option("force", { type: "boolean", default: false, describe: "with --out-dir: overwrite existing files" }) as unknown as Argv<PlanArgs>,
  handler: async (argv: ArgumentsCamelCase<PlanArgs>) => {
    const cwd = process.cwd();
    const zonePlans = parseZonePlans(argv["zone-plan"]);
    const rulesetIds = parsePairs(argv["ruleset-id"], "ruleset-id");
    for (const [zone, id] of Object.entries(rulesetIds)) {
      if (!/^[0-9a-f]{32}$/i.test(id)) throw new CliError(`--ruleset-id ${zone}=${id}: a ruleset id is 32 hexadecimal characters`);
    }
    // Every usage refusal comes before the first file is written: a bad --format must not follow a written --out-dir.
    resolveOutputs(argv.format, argv.output, FORMATS, process.stdout.isTTY === true);
    const session = onlineSessionFromArgs(argv, cwd);
    const run = parseEstateRun(argv);
    // A plan holds the whole estate, yet its live heap is well under what V8 lets it grow to (v8-heap.ts).
    boundHeapGrowth();
    const estate = await loadCliEstate(argv, cwd, run);
    // One migrate.sh runs in one root: over several roots or workspaces, --out-dir writes one per instance.
    if (estate.instances.length > 1) refuseShellOverEstate(argv, estate.instances.length);
    const errors: InputError[] = [...estate.errors];

    const configRulesets = inputRecord<Ruleset>();
    for (const [zone, file] of Object.entries(parsePairs(argv["config-json"], "config-json"))) {
      const res = await readServiceConfig(path.resolve(cwd, file), file);
      if (res.ok) configRulesets[zone] = res.ruleset;
      else errors.push(res.error);
    }

    let extracted: ExtractedRuleset[] = [];
    if (argv["from-cf-terraforming"]) {
      const file = argv["from-cf-terraforming"];
      let text: string | null = null;
      try {
        text = await readFile(path.resolve(cwd, file), "utf8");
      } catch (e) {
        errors.push({ file, line: null, column: null, message: `cannot read: ${(e as Error).message}` });
      }
      if (text !== null) {
        const res = await extractManagedRulesets(file, text);
        if (res.ok) extracted = res.rulesets;
        else errors.push(res.error);
      }
    }

    const planned = await planEstate(estate, {
      cwd,
      version: toolVersion(),
      root: relativeRoot(estate.base, cwd),
      errors,
      zonePlans,
      rulesetIds,
      configRulesets,
      rulesetRoots: rulesetRootsOf(argv, estate),
      ...(argv["provider-major"] !== undefined ? { providerMajor: argv["provider-major"] as 4 | 5 } : {}),
      extracted,
      fromCfTerraforming: argv["from-cf-terraforming"] ?? null,
      outDir: argv["out-dir"] ?? null,
      session,
      readPaths: argv.paths.length ? argv.paths : ["."],
    });
    const { analysis, report, otherCallers } = planned;
    const plans = planned.instances.map((p) => p.plan);

    const single = plans.length === 1 ? { plan: plans[0]!, providerMajor: planned.instances[0]!.providerMajor } : null;
    const plannedState = single ? plannedStateOf(planned.instances[0]!.inst) : null;
    const stateNote = single ? plannedStateNote(plannedState, scriptWorkspace(planned.instances[0]!.inst.workspace)) : undefined;
    const first = single?.plan.constraintStep ? `${single.plan.constraintStep} (see PROVIDER_FEATURE_MISSING)` : undefined;
    // Several instances: the shared Markdown report (a summary per zone and instance, then the steps).
    const markdown = single
      ? () =>
          renderPlanMarkdown({ report, providerMajor: single.providerMajor, artifacts: single.plan.artifactList, stateRemovals: single.plan.stateRemovals, versions: single.plan.versionsMarkdown, first, syntaxLabel: single.plan.syntaxLabel, ...(stateNote ? { stateNote } : {}) })
      : (r: Report) => renderMarkdown(r, { title: "plan" });
    const script = () => renderMigrateScript({ ...scriptInput(toolVersion(), analysis.zones, single!.plan), workspace: planned.instances[0]!.inst.workspace, plannedState, otherCallers });
    // Input that could not be read (or a file step 6 cannot edit) makes the plan incomplete: a legacy block
    // there would be missing from the patch and the script. Such a run exits 2 and writes no artifact at all.
    const withheld = argv["out-dir"] !== undefined && report.errors.length > 0;
    // `--format shell` refuses such a plan before any output: no report file, no --out-dir file, no stdout.
    const targets = resolveOutputs(argv.format, argv.output, FORMATS, process.stdout.isTTY === true);
    if (single && report.errors.length > 0 && targets.some((t) => t.format === "shell")) {
      writeReportInputErrors(report);
      throw new CliError(withheldScriptMessage(report.errors.length));
    }
    // Every refusal before the first write: a report file that cannot be written must not follow a written --out-dir.
    const artifactsContent = argv["out-dir"] && single && !withheld ? { plan: single.plan, report, markdown: markdown(report), script: script() } : null;
    const ownFiles = new Set(artifactsContent ? artifactNames(artifactsContent.plan).map((name) => path.resolve(cwd, argv["out-dir"]!, name)) : []);
    if (argv["out-dir"] && !withheld) await checkWritableDirectory(path.resolve(cwd, argv["out-dir"]), `--out-dir ${argv["out-dir"]}`);
    for (const t of targets) {
      if (t.file !== null) await checkReportFile(t.file, t.file === argv.output ? `--output ${t.file}` : `--format ${t.format}=${t.file}`, ownFiles);
    }
    if (artifactsContent) {
      const written = await writeArtifacts(path.resolve(cwd, argv["out-dir"]!), artifactsContent, argv.force);
      process.stderr.write(`cf-waf-migrate: wrote ${written.map((f) => path.join(argv["out-dir"]!, f)).join(", ")}\n`);
    } else if (argv["out-dir"] && !single && !withheld) {
      const written = await writeEstatePlans({
        cwd,
        outDir: argv["out-dir"],
        force: argv.force,
        version: toolVersion(),
        root: relativeRoot(estate.base, cwd),
        errors: planned.errors,
        instances: planned.instances.map((s, i) => ({
          instance: s.inst,
          analysis: analysis.instances[i]!,
          plan: s.plan,
          providerMajor: s.providerMajor,
          estateFindings: joinFindingsOf(analysis.findings, s.inst),
        })),
      });
      process.stderr.write(`cf-waf-migrate: ${estateWritten(argv["out-dir"], ESTATE_MD, written)}\n`);
    }
    const shown = recordShard(run, report);
    await emitReport(shown, {
      formats: argv.format,
      output: argv.output,
      title: "plan",
      allowed: FORMATS,
      renderers: { markdown: (r) => markdown(r), ...(single ? { shell: () => script() } : {}) },
    });
    if (withheld) {
      const n = report.errors.length;
      process.stderr.write(`cf-waf-migrate: --out-dir: nothing was written to ${argv["out-dir"]}: ${n} input error${n === 1 ? "" : "s"} (above) make${n === 1 ? "s" : ""} the plan incomplete; fix ${n === 1 ? "it" : "them"} and run plan again\n`);
    }
    const failOn = parseFailOn(argv["fail-on"], "never");
    process.exitCode = exitCodeFor(shown, failOn);
    await writeSummaryFile(run, shown, failOn, estate.allRootPaths);
  },
};

/** Like --out-dir, `--format shell` gives no migrate.sh for a plan that input errors leave incomplete. */
function withheldScriptMessage(errors: number): string {
  return `--format shell: no migrate.sh is printed and nothing is written: ${errors} input error${errors === 1 ? "" : "s"} (above) make${errors === 1 ? "s" : ""} the plan incomplete; fix ${errors === 1 ? "it" : "them"} and run plan again`;
}

/** `--format shell` prints one migrate.sh, for one root: over several instances, --out-dir writes one each. */
function refuseShellOverEstate(argv: PlanArgs, instances: number): void {
  if (!argv.format.some((f) => f.split("=")[0]!.trim() === "shell")) return;
  throw new CliError(`--format shell prints the migrate.sh of one root module, and this run has ${instances} root/workspace instances: use --out-dir DIR, which writes one complete migration per root and workspace and DIR/ESTATE.md with the order to run them`);
}
