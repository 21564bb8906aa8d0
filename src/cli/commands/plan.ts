// `cf-waf-migrate plan`: the replacement ruleset, its import, and the seven-step plan with dry-run state
// removal, as a report and (with --out-dir) as files a person reviews and runs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ArgumentsCamelCase, Argv, CommandModule } from "yargs";
import { groupByZone } from "../../core/analyze.js";
import { LEGACY_WAF_RESOURCE_TYPES } from "../../core/legacy-types.js";
import type { Finding, InputError, Report, Ruleset } from "../../core/model.js";
import { MANAGED_PHASE } from "../../core/mappings.js";
import { skipAfterExecuteFindings } from "../../core/ruleset-order.js";
import { analyzeEstateOnline } from "../../estate/online.js";
import { rootProviderInfo } from "../../estate/gate.js";
import { buildEstateReport, instanceInputs } from "../../estate/report.js";
import { dedupeErrors } from "../../estate/load.js";
import { instanceOutDirFromRoot, writeEstatePlans } from "../../plan/estate-out-dir.js";
import { renderMarkdown } from "../../render/markdown.js";
import { loadCliEstate, rulesetRootsOf } from "../workspace.js";
import { checkReportFile, checkWritableDirectory, relativeRoot, toolVersion } from "../io.js";
import { parseFailOn, parsePairs, parseZonePlans, resolveOutputs, withExamples, withInputOptions, withOutputOptions, type CommonArgs } from "../options.js";
import { emitReport, exitCodeFor } from "../report-output.js";
import { parseEstateRun, withEstateOptions, recordShard, writeSummaryFile, type EstateRunArgs } from "../estate-run.js";
import { CliError } from "../errors.js";
import { collectProviderInfo, rulesetSyntaxMajor } from "../../terraform/versions/providers.js";
import { readServiceConfig } from "../../terraform/config/service-config.js";
import { extractManagedRulesets, type ExtractedRuleset } from "../../terraform/cf-terraforming/read.js";
import { isLiteralZoneId } from "../../core/import-id.js";
import { rulesetWorkspaceGate } from "../../core/workspace-ruleset.js";
import { artifactFiles, assemblePlan, scriptInput, writeArtifacts, type AssembledPlan } from "../../plan/artifacts.js";
import { renderPlanMarkdown } from "../../plan/plan-markdown.js";
import { renderMigrateScript } from "../../plan/migrate-script.js";
import { plannedStateNote, plannedStateOf, scriptWorkspace } from "../../plan/planned-state.js";
import { instanceName } from "../../estate/order.js";
import { instancesSharingFiles, otherCallersNote, otherCallersOfPlan, withdrawRemovedBlocks } from "../../plan/other-callers.js";
import { inputRecord } from "../../core/null-proto.js";
import { onlineSessionFromArgs, withOnlineOptions, type OnlineArgs } from "../online-options.js";

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

    const providerInfo = await collectProviderInfo(estate.tree, estate.base);
    // Each instance is planned for its own root's provider; cf-terraforming names the resource itself:
    // import into that name (one zone, or the zone it names).
    const setups = estate.instances.map((inst) => {
      const info = rootProviderInfo(providerInfo, inst.dir);
      // Steps 1-6 run where the legacy resources still exist (<= 3.35, block syntax): a root pinned to 5.x
      // while it holds them is moved to ~> 3.35 first (PROVIDER_FEATURE_MISSING), so its ruleset is written for that.
      const holdsLegacy = inst.ws.resources.some((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type));
      const providerMajor = (argv["provider-major"] as 4 | 5 | undefined) ?? (holdsLegacy ? 4 : rulesetSyntaxMajor(info));
      const names = matchExtracted(extracted, groupByZone(inst.ws.domain).map((z) => z.zoneId));
      // A root several workspaces share: its ruleset exists in this workspace only (core/workspace-ruleset.ts).
      const gate = rulesetWorkspaceGate(inst.workspace, estate.instances.filter((o) => o.dir === inst.dir).length);
      return { inst, info, providerMajor, names, gate };
    });
    const online = await analyzeEstateOnline(
      instanceInputs(estate.instances).map((input, i) => {
        const { providerMajor, names, gate } = setups[i]!;
        return { ...input, options: { providerMajor, ...(Object.keys(names).length ? { rulesetResourceNames: names } : {}), ...(gate !== null ? { rulesetWorkspace: gate } : {}) } };
      }),
      { zonePlans, rulesetIds, configRulesets, rulesetRoots: rulesetRootsOf(argv, estate) },
      session,
    );
    const analysis = online.analysis;

    const several = setups.length > 1;
    const plans: AssembledPlan[] = [];
    /** One root alone: other roots calling a module step 6 edits (migrate.sh reads their states first). */
    let otherCallers: string[] = [];
    for (const [i, { inst, info, providerMajor, gate }] of setups.entries()) {
      // A split zone's ruleset is planned once, where its import is (the other instances feed it skip rules).
      const own = analysis.instances[i]!.analysis;
      const planned = several ? { ...own, zones: own.zones.filter((z) => !z.zone.rulesetIn) } : own;
      // PLAN.md's commands run in the root: there, an instance's artifacts are at this path.
      const outDir = argv["out-dir"] ? (several ? instanceOutDirFromRoot(cwd, argv["out-dir"], inst) : argv["out-dir"]) : null;
      // Its legacy instances of those zones are still its own to remove.
      const fedZones = several ? own.zones.filter((z) => z.zone.rulesetIn) : [];
      const plan = await assemblePlan({ ws: inst.ws, analysis: planned, providerMajor, extracted, fromCfTerraforming: argv["from-cf-terraforming"] ?? null, outDir, providerInfo: info, rulesetHcl: argv["out-dir"] !== undefined, rulesetWorkspace: gate, ...(several ? { rootDir: inst.dir, fedZones } : {}) });
      if (!several) {
        otherCallers = await otherCallersOfPlan(inst.dir, plan);
        const step6 = plan.steps.find((s) => s.number === 6);
        if (otherCallers.length && step6) step6.notes = [...(step6.notes ?? []), otherCallersNote(otherCallers)];
        withdrawRemovedBlocks(plan, otherCallers);
      }
      const at = { root: inst.root, workspace: inst.workspace };
      // cf-terraforming's ruleset becomes ruleset.tf as written: its rule order is checked like an existing one's.
      if (argv["from-cf-terraforming"]) plan.findings.push(...extractedOrderFindings(extracted, setups[i]!.names, path.relative(estate.base, path.resolve(cwd, argv["from-cf-terraforming"]))));
      for (const step of plan.steps) Object.assign(step, at);
      for (const f of plan.findings) Object.assign(f, at);
      errors.push(...plan.errors);
      plans.push(plan);
    }
    // An estate: an instance whose module blocks other instances use too gets no removed.tf either.
    if (setups.length > 1) {
      const sharing = instancesSharingFiles(plans.map((p, i) => ({ name: instanceName(setups[i]!.inst), files: p.legacyPatchFiles.map((f) => path.resolve(setups[i]!.inst.dir, p.patchDir, f)) })));
      plans.forEach((p, i) => withdrawRemovedBlocks(p, sharing[i]!));
    }
    const report = buildEstateReport({
      version: toolVersion(),
      root: relativeRoot(estate.base, cwd),
      instances: estate.instances,
      analysis,
      extraFindings: plans.flatMap((p) => p.findings),
      errors: dedupeErrors(errors),
      planSteps: plans.flatMap((p) => p.steps),
    });
    // Two workspaces of one root share its versions.
    report.versions = [...new Map(plans.flatMap((p) => p.versions).map((v) => [v.root, v])).values()];
    online.decorate(report);

    const single = plans.length === 1 ? { plan: plans[0]!, providerMajor: setups[0]!.providerMajor } : null;
    const plannedState = single ? plannedStateOf(setups[0]!.inst) : null;
    const stateNote = single ? plannedStateNote(plannedState, scriptWorkspace(setups[0]!.inst.workspace)) : undefined;
    const first = single?.plan.constraintStep ? `${single.plan.constraintStep} (see PROVIDER_FEATURE_MISSING)` : undefined;
    // Several instances: the shared Markdown report (a summary per zone and instance, then the steps).
    const markdown = single
      ? () =>
          renderPlanMarkdown({ report, providerMajor: single.providerMajor, artifacts: single.plan.artifactList, stateRemovals: single.plan.stateRemovals, versions: single.plan.versionsMarkdown, first, syntaxLabel: single.plan.syntaxLabel, ...(stateNote ? { stateNote } : {}) })
      : (r: Report) => renderMarkdown(r, { title: "plan" });
    const script = () => renderMigrateScript({ ...scriptInput(toolVersion(), analysis.zones, single!.plan), workspace: setups[0]!.inst.workspace, plannedState, otherCallers });
    // Input that could not be read (or a file step 6 cannot edit) makes the plan incomplete: a legacy block
    // there would be missing from the patch and the script. Such a run exits 2 and writes no artifact at all.
    const withheld = argv["out-dir"] !== undefined && report.errors.length > 0;
    // Every refusal before the first write: a report file that cannot be written must not follow a written --out-dir.
    const artifactsContent = argv["out-dir"] && single && !withheld ? { plan: single.plan, report, markdown: markdown(report), script: script() } : null;
    const ownFiles = new Set(artifactsContent ? artifactFiles(artifactsContent).map(([name]) => path.resolve(cwd, argv["out-dir"]!, name)) : []);
    if (argv["out-dir"] && !withheld) await checkWritableDirectory(path.resolve(cwd, argv["out-dir"]), `--out-dir ${argv["out-dir"]}`);
    for (const t of resolveOutputs(argv.format, argv.output, FORMATS, process.stdout.isTTY === true)) {
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
        errors: dedupeErrors(errors),
        instances: setups.map((s, i) => ({
          instance: s.inst,
          analysis: analysis.instances[i]!,
          plan: plans[i]!,
          providerMajor: s.providerMajor,
          estateFindings: analysis.findings.filter((f) => f.code === "ZONE_SPLIT_ACROSS_ROOTS" && f.root === s.inst.root && f.workspace === s.inst.workspace),
        })),
      });
      process.stderr.write(`cf-waf-migrate: wrote ${written.join(", ")}\n`);
    }
    const shown = recordShard(run, report);
    await emitReport(shown, {
      formats: argv.format,
      output: argv.output,
      title: "plan",
      allowed: FORMATS,
      renderers: { markdown: (r) => markdown(r), ...(single ? { shell: () => (withheldScript(report.errors.length), script()) } : {}) },
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

/** RULESET_SKIP_AFTER_EXECUTE for the extracted rulesets this instance imports into (`names`: zone → resource name). */
function extractedOrderFindings(extracted: ExtractedRuleset[], names: Record<string, string>, file: string): Finding[] {
  const zoneOf = new Map(Object.entries(names).map(([zone, name]) => [name, zone]));
  return extracted
    .filter((e) => zoneOf.has(e.resourceName))
    .flatMap((e) => {
      const address = `cloudflare_ruleset.${e.resourceName}`;
      const ref = { address, configAddress: address, type: "cloudflare_ruleset", file: file.split(path.sep).join("/"), line: e.line, zoneId: zoneOf.get(e.resourceName)!, inConfig: false, inState: false };
      return skipAfterExecuteFindings({ ref, kind: "zone", phase: MANAGED_PHASE, name: null, rules: e.rules });
    });
}

/** --from-cf-terraforming: which extracted resource serves which zone. */
function matchExtracted(extracted: ExtractedRuleset[], zoneIds: string[]): Record<string, string> {
  const names = inputRecord<string>();
  for (const e of extracted) if (e.zoneId && zoneIds.includes(e.zoneId)) names[e.zoneId] = e.resourceName;
  // One resource and one zone: it serves that zone unless both ids are known and differ (over several
  // instances, another instance's zone: it is that one's).
  const only = extracted[0];
  const zone = zoneIds[0];
  if (extracted.length === 1 && zoneIds.length === 1 && Object.keys(names).length === 0 && !(only!.zoneId && isLiteralZoneId(zone!))) names[zone!] = only!.resourceName;
  return names;
}


/** Like --out-dir, `--format shell` gives no migrate.sh for a plan that input errors leave incomplete. */
function withheldScript(errors: number): void {
  if (errors === 0) return;
  throw new CliError(`--format shell: no migrate.sh is printed: ${errors} input error${errors === 1 ? "" : "s"} (above) make${errors === 1 ? "s" : ""} the plan incomplete; fix ${errors === 1 ? "it" : "them"} and run plan again`);
}

/** `--format shell` prints one migrate.sh, for one root: over several instances, --out-dir writes one each. */
function refuseShellOverEstate(argv: PlanArgs, instances: number): void {
  if (!argv.format.some((f) => f.split("=")[0]!.trim() === "shell")) return;
  throw new CliError(`--format shell prints the migrate.sh of one root module, and this run has ${instances} root/workspace instances: use --out-dir DIR, which writes one complete migration per root and workspace and DIR/ESTATE.md with the order to run them`);
}
