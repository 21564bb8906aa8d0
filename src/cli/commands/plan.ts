// `cf-waf-migrate plan`: the replacement ruleset, its import, and the seven-step plan with dry-run state
// removal, as a report and (with --out-dir) as files a person reviews and runs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { analyze } from "../../core/analyze.js";
import type { InputError, Ruleset } from "../../core/model.js";
import { buildReport } from "../../core/report.js";
import { loadCliWorkspace } from "../workspace.js";
import { relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parsePairs, parseZonePlans, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";
import { CliError } from "../errors.js";
import { collectProviderInfo, rulesetSyntaxMajor } from "../../terraform/providers.js";
import { readServiceConfig } from "../../terraform/service-config.js";
import { extractManagedRulesets, type ExtractedRuleset } from "../../terraform/cf-terraforming.js";
import { assemblePlan, scriptInput, writeArtifacts } from "../plan-artifacts.js";
import { renderPlanMarkdown } from "../../plan/plan-markdown.js";
import { renderMigrateScript } from "../../plan/migrate-script.js";
import { inputRecord } from "../../core/null-proto.js";
import { RAISE_CONSTRAINT_STEP } from "../../core/version-fit.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";
import { analyzeOnline } from "../../online/enrich.js";

const FORMATS = ["text", "json", "markdown", "shell", "html"] as const;

export interface PlanArgs extends CommonArgs, OnlineArgs {
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
    withExamples(withOnlineOptions(withOutputOptions(withInputOptions(y), FORMATS, "never")), [
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
    const session = onlineSessionFromArgs(argv, cwd);
    const ws = await loadCliWorkspace(argv, cwd);
    const errors: InputError[] = [...ws.errors];

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

    const providerInfo = await collectProviderInfo(ws.tree, ws.base);
    const providerMajor = (argv["provider-major"] as 4 | 5 | undefined) ?? rulesetSyntaxMajor(providerInfo);
    const online = await analyzeOnline(
      ws.domain,
      { zonePlans, rulesetIds, configRulesets, providerMajor, stateKnown: ws.stateKnown, unfollowedModulePrefixes: ws.remoteModules.map((m) => m.path) },
      session,
    );
    const baseAnalysis = online.analysis;
    // cf-terraforming names the resource itself: import into that name (one zone, or the zone it names).
    const names = matchExtracted(extracted, baseAnalysis.zones.map((z) => z.zone.zoneId));
    const analysis = Object.keys(names).length ? analyze(ws.domain, { ...online.options, rulesetResourceNames: names }) : baseAnalysis;

    const plan = await assemblePlan({ ws, analysis, providerMajor, extracted, fromCfTerraforming: argv["from-cf-terraforming"] ?? null, outDir: argv["out-dir"] ?? null, providerInfo, rulesetHcl: argv["out-dir"] !== undefined });
    errors.push(...plan.errors);
    const report = buildReport({
      version: toolVersion(),
      root: relativeRoot(ws.base, cwd),
      resources: ws.resources,
      analysis,
      extraFindings: [...ws.findings, ...plan.findings],
      errors,
      planSteps: plan.steps,
    });
    online.decorate(report);

    report.versions = plan.versions;
    const first = plan.raiseFirst ? `${RAISE_CONSTRAINT_STEP} (see PROVIDER_FEATURE_MISSING)` : undefined;
    const markdown = () =>
      renderPlanMarkdown({ report, providerMajor, artifacts: plan.artifactList, stateRemovals: plan.stateRemovals, versions: plan.versionsMarkdown, first, syntaxLabel: plan.syntaxLabel });
    const script = () => renderMigrateScript(scriptInput(toolVersion(), analysis.zones, plan));
    if (argv["out-dir"]) {
      const written = await writeArtifacts(path.resolve(cwd, argv["out-dir"]), { plan, report, markdown: markdown(), script: script() }, argv.force);
      process.stderr.write(`cf-waf-migrate: wrote ${written.map((f) => path.join(argv["out-dir"]!, f)).join(", ")}\n`);
    }
    await emitReport(report, {
      formats: argv.format,
      output: argv.output,
      title: "plan",
      allowed: FORMATS,
      renderers: { markdown: () => markdown(), shell: () => script() },
    });
    process.exitCode = exitCodeFor(report, parseFailOn(argv["fail-on"], "never"));
  },
};

/** --from-cf-terraforming: which extracted resource serves which zone. */
function matchExtracted(extracted: ExtractedRuleset[], zoneIds: string[]): Record<string, string> {
  const names = inputRecord<string>();
  for (const e of extracted) if (e.zoneId && zoneIds.includes(e.zoneId)) names[e.zoneId] = e.resourceName;
  if (extracted.length === 1 && zoneIds.length === 1 && Object.keys(names).length === 0) names[zoneIds[0]!] = extracted[0]!.resourceName;
  return names;
}

