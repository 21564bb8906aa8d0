// Assembles the plan's artifacts from the workspace and the analysis (generated HCL, the removal patches,
// the steps), and writes them to --out-dir without ever overwriting a file unless --force.
import { ARTIFACTS } from "../core/artifacts.js";
import { otherRootBypassLine } from "../core/other-root-bypasses.js";
import { otherRootLegacyWafLine } from "../core/other-root-legacy-waf.js";
import { otherRootEntryPointLine } from "../core/other-root-entry-points.js";
import { access, chmod, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { AnalysisResult, ZoneAnalysis } from "../core/analyze.js";
import { isRepeated } from "../core/extracted-instance.js";
import { isLiteralZoneId, isModuleInternalExpression, isRootZoneLookup, RULESET_ID_PLACEHOLDER } from "../core/import-id.js";
import { LAST_LEGACY_PROVIDER_VERSION, removedBlocksEligible } from "../core/provider-version.js";
import type { Finding, InputError, PlanStep, Report, Ruleset } from "../core/model.js";
import { buildPlanSteps, type RemovedBlocksOffer } from "./steps.js";
import { renderJson } from "../render/json.js";
import type { ExtractedRuleset } from "../terraform/cf-terraforming/read.js";
import { dropConstructs } from "../terraform/cf-terraforming/fit.js";
import { FileExistsError, isSystemError, writeNewFile, type AtomicFs } from "../terraform/edit/fs-atomic.js";
import { emitImportBlock, emitRemovedBlocks, emitRulesetHcl } from "../terraform/hcl/emit.js";
import { LEGACY_BLOCK_TYPES, LEGACY_DATA_SOURCES } from "../core/legacy-types.js";
import { buildRemoval, patchBaseFor, renderPatch } from "../terraform/edit/legacy-removal.js";
import { describeExposing, legacyRemovalSet, referenceLine } from "../terraform/references/removal-set.js";
import { parseAddress } from "../core/address.js";
import { instanceName } from "../estate/order.js";
import { patchPath } from "../core/patch-base.js";
import { legacyResourceSet } from "../core/resource-match.js";
import { gitApplyCommand } from "./steps.js";
import type { ScriptInput } from "./migrate-script.js";
import { lockedVersions, type ProviderInfo } from "../terraform/versions/providers.js";
import type { Workspace } from "../terraform/inventory/workspace.js";
import { displayPath } from "../terraform/config/load.js";
import { UserInputError } from "../core/user-input-error.js";
import { rulesetCopyFile, workspaceCountExpression } from "../core/workspace-ruleset.js";
import { LOWER_CONSTRAINT_STEP, RAISE_CONSTRAINT_STEP, RECOMMENDED_CONSTRAINT } from "../core/version-fit.js";
import type { RulesetFit } from "../core/version-fit.js";
import { fitFindings, fitZoneRuleset, planVersions, withoutComputedFields, type VersionsReport } from "./versions.js";

export { ARTIFACTS };

export interface AssembledPlan {
  steps: PlanStep[];
  /**
   * A plan of some roots only: the findings about other roots' bypasses and legacy WAF for its zones
   * (plan/other-roots.ts), also in `findings`; migrate.sh refuses to start on them.
   */
  otherRootFindings?: { bypasses: Finding[]; legacyWaf: Finding[]; entryPoints?: Finding[] };
  findings: Finding[];
  /** LEGACY_REFERENCE findings as one line each (`file:line: message`): migrate.sh refuses while one remains. */
  legacyReferences: string[];
  errors: InputError[];
  /** Legacy resources and legacy data sources in state, as `terraform state list` prints them. */
  stateRemovals: string[];
  /**
   * The legacy resources (config addresses, instance keys dropped) whose every instance in state step 5
   * removes and step 6 checks for: every legacy block's resource, and every legacy resource state held.
   */
  legacyResources: string[];
  /** The directory both patches apply from, relative to the root module ("." for the root itself). */
  patchDir: string;
  /** The paths each patch touches, relative to patchDir. */
  legacyPatchFiles: string[];
  overridesPatchFiles: string[];
  /** ruleset.tf; "" when assemblePlan was asked not to generate it (`rulesetHcl: false`). */
  rulesetTf: string;
  /** null when the root's Terraform may be older than 1.5 (no import {} blocks). */
  importsTf: string | null;
  removedTf: string | null;
  /** Step 5's note offering removed.tf, while it is offered (withdrawRemovedBlocks takes both away). */
  removedOffer: RemovedBlocksOffer | null;
  legacyPatch: string;
  overridesPatch: string;
  artifactList: { file: string; purpose: string }[];
  /** report.json `versions` and the PLAN.md section on them. */
  versions: VersionsReport[];
  versionsMarkdown: string[];
  syntaxLabel: string;
  /**
   * The plan starts by moving the constraint to ~> 3.35: up when a required construct is missing for the
   * pinned provider, down when the root pins or locks a provider after 3.35 while it holds legacy resources.
   */
  raiseFirst: boolean;
  /** What that first step says (RAISE_CONSTRAINT_STEP or LOWER_CONSTRAINT_STEP); null without one. */
  constraintStep: string | null;
  /** The workspace the ruleset is limited to (count on terraform.workspace), or null. */
  rulesetWorkspace: string | null;
}

export async function assemblePlan(input: {
  ws: Workspace;
  analysis: AnalysisResult;
  providerMajor: 4 | 5;
  extracted: ExtractedRuleset[];
  fromCfTerraforming: string | null;
  /** --out-dir as the user wrote it, for the commands that refer to the artifacts. */
  outDir: string | null;
  providerInfo: ProviderInfo;
  /**
   * The root module's directory when it is not `ws.base` (one root of an estate, whose report paths are
   * relative to the estate's top): the patches' directory is given relative to it, where migrate.sh runs.
   */
  rootDir?: string;
  /**
   * Generate ruleset.tf (default true). Only --out-dir writes it (no report holds it), and over thousands
   * of zones it is most of a plan's own work: `plan` without --out-dir skips it, and `rulesetTf` is "".
   */
  rulesetHcl?: boolean;
  /**
   * Zones of this root whose one ruleset another root of the estate holds (ZONE_SPLIT_ACROSS_ROOTS): no
   * ruleset or import here, but their legacy instances in this root's state still go (steps 5 and 6).
   */
  fedZones?: ZoneAnalysis[];
  /**
   * The workspace the ruleset is limited to in a root several workspaces share (core/workspace-ruleset.ts):
   * each resource gets `count = terraform.workspace == "<ws>" ? 1 : 0` and step 2 copies it to a file of
   * its own. Absent or null: a plain ruleset.
   */
  rulesetWorkspace?: string | null;
}): Promise<AssembledPlan> {
  const { ws, analysis, providerMajor } = input;
  const gate = input.rulesetWorkspace ?? null;
  const errors: InputError[] = [];

  // Blocks to delete: packages, groups, rules and legacy data sources, with the outputs and locals that only
  // expose them, in step 6 (the same set apply removes); URI overrides (and what only exposes them) in step 0.
  const removalSet = await legacyRemovalSet(ws);
  const overrides = await buildRemoval(ws.base, [...removalSet.overrideBlocks, ...removalSet.overrideTargets]);
  const legacy = await buildRemoval(ws.base, removalSet.targets, new Map(overrides.edits.map((e) => [e.file, e.newText])));
  errors.push(...removalSet.errors.filter((e) => !ws.errors.some((w) => w.file === e.file && w.line === e.line && w.message === e.message)));
  for (const r of [...legacy.refused, ...overrides.refused]) errors.push({ file: r.file, line: null, column: null, message: `${r.reason}; delete its legacy blocks by hand` });
  // Both patches apply from one directory: the root module, or above it when a module outside it is edited.
  const base = patchBaseFor(input.rootDir ?? ws.base, [...overrides.edits, ...legacy.edits]);
  const legacyPatch = renderPatch(legacy.edits, base);
  const overridesPatch = renderPatch(overrides.edits, base);

  const dataInState = ws.resources.filter((r) => r.inState && LEGACY_DATA_SOURCES.has(r.type)).map((r) => r.address);
  const stateRemovals = [...new Set([...[...analysis.zones, ...(input.fedZones ?? [])].flatMap((z) => z.zone.stateRemovals), ...dataInState])].sort();
  // Step 5 and the step-6 guard work on resources: every instance state holds of these is removed first.
  const legacyResources = legacyResourceSet(removalSet.blockConfigAddresses, [
    ...stateRemovals,
    ...ws.resources.filter((r) => r.inState && LEGACY_BLOCK_TYPES.has(r.type)).map((r) => r.address),
  ]);

  const removedBlocksOffered = removedBlocksApply(ws, input.providerInfo);
  const notMigrated = notMigratedByZone(analysis.findings);
  // Fit each generated ruleset to the provider versions of steps 1-6 (core/version-fit.ts).
  const importCount = analysis.zones.reduce((n, z) => n + z.zone.imports.length, 0);
  const versionFit = planVersions(ws, input.providerInfo, importCount);
  // cf-terraforming's ruleset (kept as written) is fitted by the constructs its text uses.
  const keptFrom = (z: ZoneAnalysis) => input.extracted.find((e) => e.resourceName === z.rulesetResourceName);
  const fits = analysis.zones.map((z) => fitZoneRuleset(versionFit, withoutComputedFields(z.zone.ruleset), keptFrom(z) ? { constructs: keptFrom(z)!.constructs } : {}));
  // A construct missing, or a pinned provider without the legacy resources: the constraint moves to ~> 3.35 first.
  const pinnedWithoutLegacy = versionFit.roots.some((r) => r.hasLegacy && r.provider.legacyUnavailable);
  const raiseFirst = fits.some((f) => f.missing.length > 0) || pinnedWithoutLegacy;
  const constraintStep = pinnedWithoutLegacy ? LOWER_CONSTRAINT_STEP : raiseFirst ? RAISE_CONSTRAINT_STEP : null;
  const zoneRulesets =
    input.rulesetHcl === false
      ? []
      : await Promise.all(
          analysis.zones.map((z, i) =>
            // One kept resource with for_each serves several zones (an instance each): it is written once.
            keptFrom(z) && analysis.zones.slice(0, i).some((o) => o.rulesetResourceName === z.rulesetResourceName)
              ? Promise.resolve(`# ${z.zone.zoneName ?? z.zone.zoneId}: instance ${z.zone.imports[0]?.to ?? z.rulesetResourceName} of the resource kept above\n`)
              : rulesetHclFor(z, providerMajor, input.extracted, notMigrated.get(z.zone.zoneId) ?? [], fits[i]!, pinnedWithoutLegacy, gate),
          ),
        );
  // An instance that plans no ruleset (it only feeds a zone another root holds): a ruleset.tf that says so.
  const rulesetTf = input.rulesetHcl === false || analysis.zones.length > 0 ? zoneRulesets.join("\n") : emptyRulesetFile(input.fedZones ?? []);
  const importsTf = versionFit.importBlocks && importCount > 0 ? importsFile(analysis.zones, versionFit.importIdExpressions) : null;
  // One removed {} per resource (it covers every instance of it); data sources have no removed {}.
  const removedFrom = legacyResources.filter((a) => {
    const p = parseAddress(a);
    return p.mode === "managed" && LEGACY_BLOCK_TYPES.has(p.type);
  });
  const removedTf = removedBlocksOffered && removedFrom.length ? emitRemovedBlocks(removedFrom) : null;

  const rulesetDeclared = declaredInRoot(ws, input.rootDir ?? ws.base, analysis.zones, rulesetCopyFile(gate));
  const { steps, removedOffer } = buildPlanSteps({
    zones: analysis.zones,
    stateRemovals,
    overrides: analysis.zones.flatMap((z) => z.inventory.overrides.map((o) => ({ address: o.ref.address, configAddress: o.ref.configAddress, zoneId: o.ref.zoneId, inConfig: o.ref.inConfig }))),
    legacyBlockFiles: legacy.edits.map((e) => e.file),
    patchDir: base.fromRoot,
    legacyResources,
    exposingRemovals: removalSet.exposing.map(describeExposing),
    legacyReferences: removalSet.findings.map(referenceLine),
    providerMajor,
    removedBlocksOffered: removedTf !== null,
    rulesetFile: ARTIFACTS.ruleset,
    rulesetCopy: rulesetCopyFile(gate),
    rulesetWorkspace: gate,
    ...(rulesetDeclared.length ? { rulesetDeclared } : {}),
    ...(analysis.zones.some((z) => keptFrom(z) && isRepeated(keptFrom(z)!.repetition)) ? { rulesetKeptRepeated: true } : {}),
    outDir: input.outDir,
    fromCfTerraforming: input.fromCfTerraforming ? { file: input.fromCfTerraforming } : null,
    stateKnown: ws.stateKnown,
    artifacts: { patch: ARTIFACTS.patch, imports: ARTIFACTS.imports, removed: ARTIFACTS.removed, script: ARTIFACTS.script },
    importBlocks: { offered: importsTf !== null, reason: versionFit.importReason },
    fedZones: (input.fedZones ?? []).filter((z) => z.zone.rulesetIn).map((z) => ({ zoneId: z.zone.zoneId, rulesetIn: instanceName(z.zone.rulesetIn!) })),
  });
  if (overridesPatch) steps[0]!.commands.unshift(gitApplyCommand(base.fromRoot, ARTIFACTS.overridesPatch));
  if (raiseFirst) {
    steps[0]!.commands.unshift(`terraform init -upgrade`);
    const why = pinnedWithoutLegacy
      ? `the provider the root pins or locks is after ${LAST_LEGACY_PROVIDER_VERSION} and no longer has the legacy resources steps 1-6 load (PROVIDER_FEATURE_MISSING)`
      : "the provider the root pins lacks what the migration needs (PROVIDER_FEATURE_MISSING)";
    steps[0]!.notes = [`${constraintStep}: ${why}; ruleset.tf is written for ${RECOMMENDED_CONSTRAINT}`, ...(steps[0]!.notes ?? [])];
  }

  const artifactList = [
    { file: ARTIFACTS.planMd, purpose: "this plan" },
    {
      file: ARTIFACTS.ruleset,
      purpose:
        analysis.zones.length === 0
          ? "no resource: this root plans no entry point ruleset, so step 2 has nothing to copy"
          : gate === null
          ? `the zone entry point ruleset${analysis.zones.length === 1 ? "" : "s"} (step 2): copy into the root module`
          : `the zone entry point ruleset${analysis.zones.length === 1 ? "" : "s"} of workspace ${gate} only (count on terraform.workspace; step 2): copy into the root module as ${rulesetCopyFile(gate)}, next to the other workspaces' files`,
    },
    ...(importsTf !== null ? [{ file: ARTIFACTS.imports, purpose: "import {} blocks (step 3, Terraform 1.5+, root module only)" }] : []),
    ...(removedTf ? [{ file: ARTIFACTS.removed, purpose: "removed {} blocks: the alternative to step 5 while the lock pins provider <= 3.35; it deletes the legacy blocks for every workspace of this root, so run `bash migrate.sh --check-removed` first" }] : []),
    { file: ARTIFACTS.script, purpose: "steps 3 to 7 as a script (dry run first, asks before state rm unless --yes; TF=tofu for OpenTofu)" },
    ...(overridesPatch ? [{ file: ARTIFACTS.overridesPatch, purpose: "step 0: removes the URI-based override blocks (and the outputs and locals that only expose them); apply it, then `terraform apply` deletes them" }] : []),
    ...(legacyPatch ? [{ file: ARTIFACTS.patch, purpose: "step 6: removes exactly the legacy blocks and the outputs and locals that only expose them, nothing else" }] : []),
    { file: ARTIFACTS.report, purpose: "the JSON report with the plan (schemaVersion 1)" },
  ];
  return {
    steps,
    findings: [...removalSet.findings, ...versionFit.findings, ...fitFindings(fits)],
    legacyReferences: removalSet.findings.map(referenceLine),
    errors,
    stateRemovals,
    legacyResources,
    patchDir: base.fromRoot,
    legacyPatchFiles: legacy.edits.map((e) => patchPath(base, e.absolute)).sort(),
    overridesPatchFiles: overrides.edits.map((e) => patchPath(base, e.absolute)).sort(),
    rulesetTf,
    importsTf,
    removedTf,
    removedOffer,
    legacyPatch,
    overridesPatch,
    artifactList,
    versions: versionFit.report(fits),
    versionsMarkdown: versionFit.markdown(fits, providerMajor),
    syntaxLabel: versionFit.syntaxLabel(fits, providerMajor),
    raiseFirst,
    constraintStep,
    rulesetWorkspace: gate,
  };
}

/** ruleset.tf of an instance that plans no ruleset: comments only, so a copy of it declares nothing. */
function emptyRulesetFile(fedZones: ZoneAnalysis[]): string {
  const where = fedZones.filter((z) => z.zone.rulesetIn).map((z) => `# ${z.zone.zoneId}: its ruleset is planned in ${instanceName(z.zone.rulesetIn!)} (ZONE_SPLIT_ACROSS_ROOTS).\n`);
  return `# No entry point ruleset in this root module: nothing to copy (PLAN.md step 2).\n${where.join("")}`;
}

/**
 * The overrides the ruleset cannot carry, as TODO lines, per zone id, in finding order. Grouped once:
 * filtering every finding for every zone was zones × findings (seconds with thousands of zones).
 */
function notMigratedByZone(findings: Finding[]): Map<string, string[]> {
  const byZone = new Map<string, string[]>();
  for (const f of findings) {
    if (f.zoneId === null || (f.code !== "MANAGED_OVERRIDE_UNMAPPED" && f.code !== "CRS_OVERRIDE_NOT_MIGRATED")) continue;
    let list = byZone.get(f.zoneId);
    if (!list) byZone.set(f.zoneId, (list = []));
    list.push(`${f.code}: ${f.message}`);
  }
  return byZone;
}

/**
 * The resources ruleset.tf declares that a file of the root module already declares, other than the file step
 * 2 copies it to (copying over that one replaces it): cf-terraforming's output kept in the root itself, or a
 * kept resource another workspace's plan already copied in. Copied again, terraform refuses the root (a
 * duplicate resource), so step 2 has nothing to copy for them.
 */
function declaredInRoot(ws: Workspace, rootDir: string, zones: ZoneAnalysis[], copy: string): { address: string; file: string; line: number }[] {
  const root = ws.tree.roots.find((r) => path.resolve(r.dir.dir) === path.resolve(rootDir));
  if (!root) return [];
  const names = new Set(zones.map((z) => z.rulesetResourceName));
  return root.dir.resources
    .filter((r) => r.mode === "managed" && r.type === "cloudflare_ruleset" && names.has(r.name))
    .map((r) => ({ address: `cloudflare_ruleset.${r.name}`, file: displayPath(path.resolve(ws.base, r.file), root.dir.dir), line: r.line }))
    .filter((d) => d.file !== copy);
}

async function rulesetHclFor(
  z: ZoneAnalysis,
  providerMajor: 4 | 5,
  extracted: ExtractedRuleset[],
  notMigrated: string[],
  fit: RulesetFit,
  pinnedWithoutLegacy: boolean,
  gate: string | null,
): Promise<string> {
  const own = extracted.find((e) => e.resourceName === z.rulesetResourceName);
  const count = gate === null ? null : workspaceCountExpression(gate);
  if (own) {
    const fitted = await dropConstructs(own.text, fit.omitted.map((m) => m.construct));
    const header = rulesetHeader(fit, pinnedWithoutLegacy).map((line) => `# ${line}\n`).join("");
    return `# ${z.zone.zoneName ?? z.zone.zoneId}: kept from cf-terraforming's output (step 2)\n${header}${count === null ? fitted.text : withCount(fitted.text, count, isRepeated(own.repetition))}`;
  }
  const todo = [...z.rulesetNotes, ...notMigrated];
  const zoneExpr = zoneIdExpression(z);
  if (zoneExpr.placeholder) todo.unshift("set zone_id: the zone id is not known offline");
  return emitRulesetHcl({
    resourceName: z.rulesetResourceName,
    zoneIdExpression: zoneExpr.text,
    ruleset: fit.ruleset,
    providerMajor,
    todoComments: todo,
    headerComments: rulesetHeader(fit, pinnedWithoutLegacy),
    ruleTodos: z.rulesetTodos,
    ...(count === null ? {} : { count, headerComments: [...rulesetHeader(fit, pinnedWithoutLegacy), `Workspace ${gate} only (count on terraform.workspace): the root's other workspaces have files of their own.`] }),
  });
}

/**
 * cf-terraforming's resource, kept as written, with `count` as its first line. One that already has count
 * or for_each (`repeated`, as read from its block) is left as it is, with a TODO: two would not load.
 */
export function withCount(text: string, count: string, repeated: boolean): string {
  if (repeated) return `# TODO: limit this resource to its workspace (count = ${count}); it already has count or for_each, so it was left as written\n${text}`;
  return text.replace(/^(resource\s+"cloudflare_ruleset"\s+"[^"]+"\s*\{[ \t]*\r?\n)/m, `$1  count = ${count}\n\n`);
}

/** What the ruleset was fitted to, as comments above it (the why of a left-out construct belongs next to it). */
function rulesetHeader(fit: RulesetFit, pinnedWithoutLegacy: boolean): string[] {
  if (pinnedWithoutLegacy && !fit.missing.length) {
    return [
      `Written for provider ${RECOMMENDED_CONSTRAINT}, not for the provider this root pins, which no longer has the legacy cloudflare_waf_* resources that steps 1-6 still load:`,
      `${LOWER_CONSTRAINT_STEP} before using it.`,
      ...fit.omitted.map((m) => `Left out: ${m.what}; it needs provider ${m.minimum} or later and this root may run ${m.missingAt}.`),
    ];
  }
  if (fit.missing.length) {
    return [
      `Written for provider ${RECOMMENDED_CONSTRAINT}, not for the provider this root pins, which lacks ${fit.missing.map((m) => `${m.what} (from ${m.minimum})`).join(", ")}:`,
      `${RAISE_CONSTRAINT_STEP} before using it.`,
    ];
  }
  return fit.omitted.map((m) => `Left out: ${m.what}; it needs provider ${m.minimum} or later and this root may run ${m.missingAt}.`);
}

/** `zone_id` keeps the user's expression where a root-module zone resource exists, else the literal id. */
function zoneIdExpression(z: ZoneAnalysis): { text: string; placeholder: boolean } {
  const zr = z.inventory.zone;
  // The instance address (`cloudflare_zone.z["shop"]`): a zone under count/for_each is referenced with its key.
  if (zr?.ref.inConfig && !zr.ref.configAddress.startsWith("module.")) return { text: `${zr.ref.address}.id`, placeholder: false };
  if (isLiteralZoneId(z.zone.zoneId)) return { text: JSON.stringify(z.zone.zoneId), placeholder: false };
  if (/^cloudflare_zone\.[\w-]+(\["[^"\\]*"\])?\.id$/.test(z.zone.zoneId)) return { text: z.zone.zoneId, placeholder: false };
  // The root's own lookup (data.cloudflare_zone.this.id): the ruleset reads the zone id the way the legacy resources did.
  if (isRootZoneLookup(z.zone.zoneId)) return { text: z.zone.zoneId, placeholder: false };
  return { text: JSON.stringify("<ZONE_ID>"), placeholder: true };
}

/** `expressions`: every Terraform version the root admits evaluates references in an import `id` (1.6+). */
function importsFile(zones: ZoneAnalysis[], expressions: boolean): string {
  const parts: string[] = [];
  const incomplete = zones.some((z) => z.zone.imports.some((i) => i.id.includes(RULESET_ID_PLACEHOLDER)));
  if (incomplete) parts.push(`# Replace ${RULESET_ID_PLACEHOLDER} with the id from \`cf-waf-migrate api entrypoint --zone <zone>\` before planning.\n`);
  for (const z of zones) {
    for (const i of z.zone.imports) {
      // Config only: the zone id is an expression. A root-module zone reference is one an import {} block can
      // evaluate; anything else (a module's var.zone_id) means nothing at the root: a placeholder to fill in.
      const zoneId = z.zone.zoneId;
      if (isLiteralZoneId(zoneId)) parts.push(emitImportBlock(i.to, i.id));
      else if (/^cloudflare_zone\.[\w-]+(\["[^"\\]*"\])?\.id$/.test(zoneId) || isRootZoneLookup(zoneId)) {
        if (expressions) parts.push(emitImportBlock(i.to, i.id, { interpolate: zoneId }));
        // Terraform 1.5 refuses any reference in an import id ("must be a string"): a literal to fill in.
        else parts.push(`# required_version admits Terraform 1.5, whose import id must be a literal string (references need 1.6): put the id of ${zoneId} here.\n` + emitImportBlock(i.to, i.id.replace("${" + zoneId + "}", "<ZONE_ID>")));
      }
      else parts.push(`# ${zoneId} ${isModuleInternalExpression(zoneId) ? "is only known inside its module" : "is not known offline"}: put the zone id here.\n` + emitImportBlock(i.to, i.id.replace("${" + zoneId + "}", "<ZONE_ID>")));
    }
  }
  return parts.join("\n");
}

function removedBlocksApply(ws: Workspace, info: ProviderInfo): boolean {
  // The Terraform version is the one that last wrote the state.
  const tfVersions = ws.states.map((s) => s.terraformVersion).filter((v): v is string => !!v);
  return removedBlocksEligible(tfVersions, lockedVersions(info));
}

/** What migrate.sh needs of the plan. */
export function scriptInput(version: string, zones: ZoneAnalysis[], plan: AssembledPlan): ScriptInput {
  return {
    version,
    zones,
    legacyResources: plan.legacyResources,
    legacyReferences: plan.legacyReferences,
    otherRootBypasses: (plan.otherRootFindings?.bypasses ?? []).map(otherRootBypassLine),
    otherRootEntryPoints: (plan.otherRootFindings?.entryPoints ?? []).map(otherRootEntryPointLine),
    otherRootLegacyWaf: {
      known: (plan.otherRootFindings?.legacyWaf ?? []).filter((f) => f.code === "LEGACY_WAF_IN_OTHER_ROOT").map(otherRootLegacyWafLine),
      unknown: (plan.otherRootFindings?.legacyWaf ?? []).filter((f) => f.code !== "LEGACY_WAF_IN_OTHER_ROOT").map(otherRootLegacyWafLine),
    },
    patchDir: plan.patchDir,
    legacyPatch: plan.legacyPatch ? { file: ARTIFACTS.patch, paths: plan.legacyPatchFiles } : null,
    overridesPatch: plan.overridesPatch ? { file: ARTIFACTS.overridesPatch, paths: plan.overridesPatchFiles } : null,
    rulesetGate: plan.rulesetWorkspace === null ? null : { workspace: plan.rulesetWorkspace, copy: rulesetCopyFile(plan.rulesetWorkspace) },
    removedBlocks: plan.removedTf ? ARTIFACTS.removed : null,
  };
}

export async function writeArtifacts(
  dir: string,
  content: { plan: AssembledPlan; report: Report; markdown: string; script: string },
  force: boolean,
  /** The file system the files are written through (tests put a failing one here). */
  fs?: AtomicFs,
): Promise<string[]> {
  const files = artifactFiles(content);
  // Refuse before creating anything: not even the directory is made for a run that writes nothing.
  if (!force) {
    const existing = await existingFiles(dir, files.map(([name]) => name));
    if (existing.length) throw new UserInputError(`${dir} already has ${existing.join(", ")}: nothing was written (use --force to overwrite)`);
  }
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of files) {
    try {
      await writeNewFile(path.join(dir, name), text, { force, ...(fs ? { fs } : {}) });
      written.push(name);
    } catch (e) {
      if (e instanceof FileExistsError) throw new UserInputError(`${path.join(dir, name)} appeared while writing: use --force to overwrite`);
      throw await incompletePlan(e, dir, name, written, force);
    }
  }
  await chmod(path.join(dir, ARTIFACTS.script), 0o755);
  return files.map(([name]) => name);
}

/**
 * A plan file the system would not write (a full disk, a quota): `what` says which file and the system's
 * words, the message adds what became of the plan. Callers writing several plans word their own outcome.
 */
export class PlanWriteError extends UserInputError {
  constructor(
    readonly what: string,
    outcome: string,
  ) {
    super(`${what}; ${outcome}`);
    this.name = "PlanWriteError";
  }
}

/**
 * A plan the system would not let us finish writing: half a migration must not look like one (a PLAN.md
 * without its migrate.sh), so the files this run created are removed again. With --force they replaced
 * earlier ones, which are gone: the message names them. Any other error is rethrown as it is.
 */
async function incompletePlan(e: unknown, dir: string, failed: string, written: string[], force: boolean): Promise<unknown> {
  if (!isSystemError(e)) return e;
  const what = `cannot write ${path.join(dir, failed)}: ${(e as Error).message}`;
  if (force) return new PlanWriteError(what, `the plan in ${dir} is incomplete (written: ${written.join(", ") || "none"}): rerun once there is room`);
  await Promise.all(written.map((name) => rm(path.join(dir, name), { force: true })));
  return new PlanWriteError(what, `nothing of the plan was left in ${dir}`);
}

/** The files of one migration, name and text, in the order they are written. */
export function artifactFiles(content: { plan: AssembledPlan; report: Report; markdown: string; script: string }): [string, string][] {
  const { plan } = content;
  const text: Record<string, () => string> = {
    [ARTIFACTS.planMd]: () => content.markdown,
    [ARTIFACTS.ruleset]: () => plan.rulesetTf,
    [ARTIFACTS.imports]: () => plan.importsTf!,
    [ARTIFACTS.removed]: () => plan.removedTf!,
    [ARTIFACTS.script]: () => content.script,
    [ARTIFACTS.overridesPatch]: () => plan.overridesPatch!,
    [ARTIFACTS.patch]: () => plan.legacyPatch!,
    [ARTIFACTS.report]: () => renderJson(content.report),
  };
  return artifactNames(plan).map((name) => [name, text[name]!()]);
}

/**
 * The names of a plan's artifacts, in the order they are written, without rendering any: what the
 * refusals before the first write look for (an estate's plan asks for every root's before writing one).
 */
export function artifactNames(plan: AssembledPlan): string[] {
  return [
    ARTIFACTS.planMd,
    ARTIFACTS.ruleset,
    ...(plan.importsTf !== null ? [ARTIFACTS.imports] : []),
    ...(plan.removedTf ? [ARTIFACTS.removed] : []),
    ARTIFACTS.script,
    ...(plan.overridesPatch ? [ARTIFACTS.overridesPatch] : []),
    ...(plan.legacyPatch ? [ARTIFACTS.patch] : []),
    ARTIFACTS.report,
  ];
}

/** Which of `names` already exist in `dir`. */
export async function existingFiles(dir: string, names: string[]): Promise<string[]> {
  const existing: string[] = [];
  for (const name of names) {
    try {
      await access(path.join(dir, name));
      existing.push(name);
    } catch {
      // absent: fine
    }
  }
  return existing;
}
