// Plans every root/workspace instance of a loaded estate: what `plan` computes before it renders or writes
// anything. Each instance is planned for its own root's provider (a root still holding legacy blocks is
// planned for 3.35 block syntax), a split zone's ruleset once where its import is, and `removed.tf` is
// withheld from an instance whose module blocks another caller still needs. Reads only (the module calls of
// other roots, the provider lock files); writes nothing.
import { migrationSyntaxMajor } from "../core/version-fit.js";
import { inputRecord } from "../core/null-proto.js";
import type { Workspace } from "../terraform/inventory/workspace.js";
import path from "node:path";
import { groupByZone } from "../core/analyze.js";
import type { Finding, InputError, Report, Ruleset, ZonePlan } from "../core/model.js";
import { dedupeErrors, type Estate, type EstateInstance } from "../estate/load.js";
import { rootProviderInfo } from "../estate/gate.js";
import { analyzeEstateOnline } from "../estate/online.js";
import { instanceName } from "../estate/order.js";
import { buildEstateReport, instanceInputs, rulesetWorkspaceOf } from "../estate/report.js";
import { joinFindingsOf, type EstateAnalysis } from "../estate/analyze.js";
import type { OnlineSession } from "../online/session.js";
import type { ExtractedRuleset } from "../terraform/cf-terraforming/read.js";
import { collectProviderInfo, rulesetSyntaxMajor, type ProviderInfo } from "../terraform/versions/providers.js";
import { assemblePlan, type AssembledPlan } from "./artifacts.js";
import { extractedInstanceSuffixes, extractedOrderFindings, extractedSharedByWorkspaces, extractedUnplannedInstances, extractedUnusedFindings, matchExtracted, sharedKey } from "./extracted-match.js";
import { instanceOutDirFromRoot } from "./estate-out-dir.js";
import { addOtherCallerReferences, instancesSharingFiles, otherCallersNote, otherCallersOfPlan, withdrawRemovedBlocks } from "./other-callers.js";
import { addOtherRootFindings, otherRootsOfEstate } from "./other-roots.js";
import { addExistingEntryPointNotes } from "./existing-entry-point.js";
import { ARTIFACTS } from "../core/artifacts.js";
import { repositoryTreeReader } from "../estate/repository-tree.js";

export interface EstatePlanInput {
  /** Where relative paths given by the user (`outDir`, `fromCfTerraforming`) are resolved. */
  cwd: string;
  version: string;
  /** The report's `root`: the estate's base as the user sees it. */
  root: string;
  /** Errors found so far (reading the estate, the saved configurations, the cf-terraforming file). */
  errors: InputError[];
  zonePlans?: Record<string, ZonePlan>;
  rulesetIds?: Record<string, string>;
  configRulesets?: Record<string, Ruleset>;
  rulesetRoots?: Record<string, string>;
  /** `--provider-major`: the ruleset syntax for every instance, instead of each root's own. */
  providerMajor?: 4 | 5;
  /** cf-terraforming's managed rulesets, and the file they came from as the user named it. */
  extracted?: ExtractedRuleset[];
  fromCfTerraforming?: string | null;
  /** `--out-dir` as given: where each instance's artifacts go (PLAN.md names paths from its root). */
  outDir?: string | null;
  session?: OnlineSession | null;
  /**
   * The paths the run read (as given, against `cwd`): roots of the repository outside them are searched for
   * rules bypassing the WAF for a zone this plan migrates (plan/other-roots.ts). Absent: always searched.
   */
  readPaths?: string[];
}

export interface InstancePlan {
  inst: EstateInstance;
  info: ProviderInfo;
  providerMajor: 4 | 5;
  /** Zone id → the cf-terraforming resource name its ruleset is imported into. */
  names: Record<string, string>;
  plan: AssembledPlan;
}

export interface EstatePlan {
  analysis: EstateAnalysis;
  instances: InstancePlan[];
  report: Report;
  /** Every input error, deduplicated: the ones given, then each plan's. */
  errors: InputError[];
  /** One root alone: other roots calling a module whose legacy blocks step 6 deletes (relative to the root). */
  otherCallers: string[];
}

export async function planEstate(estate: Estate, input: EstatePlanInput): Promise<EstatePlan> {
  const { cwd } = input;
  const extracted = input.extracted ?? [];
  const errors = [...input.errors];
  const providerInfo = await collectProviderInfo(estate.tree, estate.base);
  // Each instance is planned for its own root's provider; cf-terraforming names the resource itself:
  // import into that name (one zone, or the zone it names).
  const setups = estate.instances.map((inst) => {
    const info = rootProviderInfo(providerInfo, inst.dir);
    const providerMajor = input.providerMajor ?? migrationSyntaxMajor(inst.ws.resources, rulesetSyntaxMajor(info));
    const zoneIds = groupByZone(inst.ws.domain).map((z) => z.zoneId);
    // What `terraform.workspace` is offline: known only when the state says which workspace it is.
    const knownWorkspace = inst.workspaceKnown ? inst.workspace : null;
    // A root several workspaces share: its ruleset exists in this workspace only (core/workspace-ruleset.ts).
    const gate = rulesetWorkspaceOf(inst);
    // The resource the zone's entry point is imported into: cf-terraforming's, else (decided by the analysis,
    // as for scan and apply: core/entry-point.ts) the one the root module already declares, else the generated one.
    const names = matchExtracted(extracted, zoneIds, knownWorkspace);
    // A kept resource with count or for_each is imported into this zone's instance, or the plan refuses.
    const suffixes = extractedInstanceSuffixes(extracted, names, inst, input.fromCfTerraforming ?? "", errors);
    return { inst, info, providerMajor, names, gate, suffixes, zoneIds, knownWorkspace };
  });
  // Nor may one such resource go into the files of several workspaces of one root.
  const gated = setups.filter((s) => s.gate !== null).map((s) => ({ dir: s.inst.dir, root: s.inst.root, workspace: s.inst.workspace, names: s.names }));
  const shared = extractedSharedByWorkspaces(extracted, gated, input.fromCfTerraforming ?? "", errors);
  // And each instance imports into every instance of it that its state does not hold yet: any other would be created.
  for (const { inst, names, suffixes, knownWorkspace } of setups) {
    const own = extracted.filter((e) => !shared.has(sharedKey(e.resourceName, inst.dir)));
    const inState = inst.stateFiles.length ? new Set(inst.ws.resources.filter((r) => r.inState).map((r) => r.address)) : null;
    extractedUnplannedInstances(own, { root: inst.root, workspace: inst.workspace, knownWorkspace, names, suffixes, inState }, input.fromCfTerraforming ?? "", errors);
  }
  const online = await analyzeEstateOnline(
    instanceInputs(estate.instances).map((one, i) => {
      const { providerMajor, names, gate, suffixes } = setups[i]!;
      return {
        ...one,
        options: {
          providerMajor,
          ...(Object.keys(names).length ? { rulesetResourceNames: names } : {}),
          ...(Object.keys(suffixes).length ? { rulesetInstanceSuffixes: suffixes } : {}),
          ...(gate !== null ? { rulesetWorkspace: gate } : {}),
        },
      };
    }),
    { zonePlans: input.zonePlans, rulesetIds: input.rulesetIds, configRulesets: input.configRulesets, rulesetRoots: input.rulesetRoots },
    input.session ?? null,
  );
  const analysis = online.analysis;

  const several = setups.length > 1;
  // The repository's other roots may bypass the WAF for these zones: read once, matched per instance below.
  const anyZone = analysis.instances.some((a) => a.analysis.zones.length > 0);
  // The repository around a one-root plan is read once for both of its searches (other roots' rules, other callers).
  const repositoryTree = repositoryTreeReader();
  const others = await otherRootsOfEstate(estate, cwd, input.readPaths, anyZone, repositoryTree);
  const plans: AssembledPlan[] = [];
  let otherCallers: string[] = [];
  for (const [i, { inst, info, providerMajor, gate }] of setups.entries()) {
    // A split zone's ruleset is planned once, where its import is (the other instances feed it skip rules).
    const own = analysis.instances[i]!.analysis;
    const planned = several ? { ...own, zones: own.zones.filter((z) => !z.zone.rulesetIn) } : own;
    // PLAN.md's commands run in the root: there, an instance's artifacts are at this path.
    const outDir = input.outDir ? (several ? instanceOutDirFromRoot(cwd, input.outDir, inst) : input.outDir) : null;
    // Its legacy instances of those zones are still its own to remove.
    const fedZones = several ? own.zones.filter((z) => z.zone.rulesetIn) : [];
    const fromCfTerraforming = input.fromCfTerraforming ?? null;
    const plan = await assemblePlan({ ws: inst.ws, analysis: planned, providerMajor, extracted, fromCfTerraforming, outDir, providerInfo: info, rulesetHcl: input.outDir !== undefined && input.outDir !== null, rulesetWorkspace: gate, ...(several ? { rootDir: inst.dir, fedZones } : {}) });
    if (!several) {
      otherCallers = await otherCallersOfPlan(inst.dir, plan, repositoryTree);
      const step6 = plan.steps.find((s) => s.number === 6);
      if (otherCallers.length && step6) step6.notes = [...(step6.notes ?? []), otherCallersNote(otherCallers)];
      withdrawRemovedBlocks(plan, otherCallers);
      await addOtherCallerReferences(inst.dir, estate.base, plan, otherCallers);
    }
    addOtherRootFindings(plan, planned.zones.map((z) => z.zone.zoneId), others);
    const at = { root: inst.root, workspace: inst.workspace };
    const joined = joinFindingsOf(analysis.findings, at);
    addExistingEntryPointNotes(plan.steps, [...planned.zones.flatMap((z) => z.findings), ...joined, ...plan.findings], ARTIFACTS.ruleset);
    // Another root of the run already manages a planned zone's entry point: migrate.sh refuses, as for a root left out.
    const elsewhere = joined.filter((f) => f.code === "MANAGED_RULESET_EXISTS");
    if (elsewhere.length) {
      const found = plan.otherRootFindings ?? { bypasses: [], legacyWaf: [] };
      plan.otherRootFindings = { ...found, entryPoints: [...(found.entryPoints ?? []), ...elsewhere] };
    }
    // cf-terraforming's ruleset becomes ruleset.tf as written: its rule order is checked like an existing one's.
    if (fromCfTerraforming) {
      const file = path.relative(estate.base, path.resolve(cwd, fromCfTerraforming));
      const { names, zoneIds, knownWorkspace } = setups[i]!;
      plan.findings.push(...extractedOrderFindings(extracted, names, file));
      plan.findings.push(...extractedUnusedFindings(extracted, names, zoneIds, knownWorkspace, file));
    }
    for (const step of plan.steps) Object.assign(step, at);
    for (const f of plan.findings) Object.assign(f, at);
    errors.push(...plan.errors);
    plans.push(plan);
  }
  // An estate: an instance whose module blocks other instances use too gets no removed.tf either.
  if (several) {
    const sharing = instancesSharingFiles(plans.map((p, i) => ({ name: instanceName(setups[i]!.inst), files: p.legacyPatchFiles.map((f) => path.resolve(setups[i]!.inst.dir, p.patchDir, f)) })));
    plans.forEach((p, i) => withdrawRemovedBlocks(p, sharing[i]!));
  }
  const deduped = dedupeErrors(errors);
  const report = buildEstateReport({
    version: input.version,
    root: input.root,
    instances: estate.instances,
    analysis,
    extraFindings: plans.flatMap((p): Finding[] => p.findings),
    errors: deduped,
    planSteps: plans.flatMap((p) => p.steps),
  });
  // Two workspaces of one root share its versions.
  report.versions = [...new Map(plans.flatMap((p) => p.versions).map((v) => [v.root, v])).values()];
  online.decorate(report);
  return {
    analysis,
    instances: setups.map((s, i) => ({ inst: s.inst, info: s.info, providerMajor: s.providerMajor, names: s.names, plan: plans[i]! })),
    report,
    errors: deduped,
    otherCallers,
  };
}
