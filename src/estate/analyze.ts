// Analyses an estate one instance at a time, then joins the results: every zone entry, finding and
// resource carries its root and workspace. A zone found in several instances (legacy WAF in one root,
// the Page Rules or firewall rules that bypass it in another) still has one entry point: its ruleset and
// import go to one instance, with the skip rules of all of them; the others keep only their own removals.
// Pure: no I/O.
import { analyze, analyzeZone, zoneAnchor, type AnalysisResult, type AnalyzeOptions, type DomainInventory, type ZoneAnalysis, type ZoneInventory } from "../core/analyze.js";
import { finding, sortFindings } from "../core/findings.js";
import { isLiteralZoneId } from "../core/import-id.js";
import { MANAGED_PHASE } from "../core/mappings.js";
import type { Finding, ResourceRef, ZoneReport } from "../core/model.js";
import { ownValue } from "../core/null-proto.js";
import { UserInputError } from "../core/user-input-error.js";
import { comparePaths } from "./instances.js";
import { instanceName, workspaceOrder } from "./order.js";
import { compareText } from "../core/text-order.js";

export { instanceName } from "./order.js";

/** What the analysis needs of one instance. */
export interface InstanceInput {
  root: string;
  workspace: string;
  domain: DomainInventory;
  stateKnown: boolean;
  unfollowedModulePrefixes: string[];
  /** Findings about reading this instance (remote modules): stamped with its root and workspace. */
  findings?: Finding[];
  /** Options of this instance alone (its provider major, its cf-terraforming resource names). */
  options?: Partial<AnalyzeOptions>;
}

export interface EstateAnalyzeOptions extends AnalyzeOptions {
  /** `--ruleset-root ZONE_ID=ROOT`: the root that gets a split zone's ruleset. */
  rulesetRoots?: Record<string, string>;
}

export interface InstanceAnalysis {
  root: string;
  workspace: string;
  analysis: AnalysisResult;
  /** Zones this instance already manages with an entry point ruleset, with no legacy WAF of them left here. */
  migratedZones: string[];
  /** The managed-phase rulesets of those zones (where another root's skip rules would have to be merged). */
  migratedEntryPoints?: ResourceRef[];
}

export interface EstateAnalysis extends AnalysisResult {
  instances: InstanceAnalysis[];
}

export function analyzeEstate(inputs: InstanceInput[], opts: EstateAnalyzeOptions = {}): EstateAnalysis {
  return joinInstances(
    inputs.map((input) => analyzeInstance(input, opts)),
    opts,
  );
}

/** One instance analysed, with what the join of split zones needs of its input (not its domain). */
export interface AnalysedInstance {
  instance: InstanceAnalysis;
  input: Pick<InstanceInput, "stateKnown" | "options">;
}

/** Analyses one instance alone: its zones and findings stamped with its root and workspace. */
export function analyzeInstance(input: InstanceInput, opts: EstateAnalyzeOptions = {}): AnalysedInstance {
  const { rulesetRoots: _, ...common } = opts;
  const analysis = analyze(input.domain, {
    ...common,
    stateKnown: input.stateKnown,
    unfollowedModulePrefixes: input.unfollowedModulePrefixes,
    ...input.options,
  });
  const at = { root: input.root, workspace: input.workspace };
  for (const z of analysis.zones) Object.assign(z.zone, at);
  const findings = [...analysis.findings, ...(input.findings ?? [])].map((f) => Object.assign(f, at));
  const inScope = new Set(analysis.zones.map((z) => z.zone.zoneId));
  const migratedEntryPoints = input.domain.rulesets.filter((r) => r.phase === MANAGED_PHASE && r.ref.zoneId !== null && !inScope.has(r.ref.zoneId)).map((r) => r.ref);
  const migratedZones = [...new Set(migratedEntryPoints.map((r) => r.zoneId!))].sort();
  return {
    instance: { ...at, analysis: { zones: analysis.zones, findings }, migratedZones, ...(migratedEntryPoints.length ? { migratedEntryPoints } : {}) },
    input: { stateKnown: input.stateKnown, ...(input.options !== undefined ? { options: input.options } : {}) },
  };
}

/** The findings the join of the estate adds about one instance (ZONE_SPLIT_ACROSS_ROOTS, another root's entry point). */
export function joinFindingsOf(findings: readonly Finding[], at: { root: string; workspace: string }): Finding[] {
  return findings.filter(
    (f) =>
      (f.code === "ZONE_SPLIT_ACROSS_ROOTS" || (f.code === "MANAGED_RULESET_EXISTS" && f.details?.["otherRoot"] !== undefined)) &&
      f.root === at.root &&
      f.workspace === at.workspace,
  );
}

/** What joining a split zone changes in one of its entries: the owner's ruleset, the others' pointer to it. */
export type ZonePatch =
  | { owner: true; ruleset: ZoneReport["ruleset"]; compatible: ZoneReport["compatible"]; phase1: ZoneReport["phase1"] }
  | { owner: false; rulesetIn: { root: string; workspace: string } };

/** Applies a split zone's join to one of its entries (the owner gets the joined ruleset; the others lose their rules and import). */
export function patchZone(zone: ZoneReport, patch: ZonePatch): void {
  if (patch.owner) {
    zone.ruleset = patch.ruleset;
    zone.compatible = patch.compatible;
    zone.phase1 = patch.phase1;
    return;
  }
  zone.ruleset = { ...zone.ruleset, rules: [] };
  zone.imports = [];
  zone.rulesetIn = patch.rulesetIn;
}

/**
 * The estate's analysis from its instances' (in instance order): split zones joined, zones and findings sorted.
 * `patch` applies a split zone's join to an entry (a caller that keeps its zones' entries elsewhere records it).
 */
export function joinInstances(analysed: AnalysedInstance[], opts: EstateAnalyzeOptions = {}, patch: (zone: ZoneReport, p: ZonePatch) => void = patchZone): EstateAnalysis {
  const { rulesetRoots, ...common } = opts;
  const instances = analysed.map((a) => a.instance);
  const owners = new Map<string, InstanceAnalysis>();
  const splitFindings = joinSplitZones(instances, analysed.map((a) => a.input), common, rulesetRoots ?? {}, patch, owners);
  splitFindings.push(...entryPointElsewhereFindings(instances, owners));
  const zones = instances
    .flatMap((i) => i.analysis.zones)
    .sort((a, b) => compareText(a.zone.zoneId, b.zone.zoneId) || comparePaths(a.zone.root!, b.zone.root!) || workspaceOrder(a.zone.workspace!, b.zone.workspace!));
  const findings = sortFindings([...instances.flatMap((i) => i.analysis.findings), ...splitFindings]);
  return { instances, zones, findings };
}

interface Entry {
  instance: InstanceAnalysis;
  input: AnalysedInstance["input"];
  zone: ZoneAnalysis;
}

/**
 * Zones (by literal id: an expression names a zone only inside its own root) that several instances
 * hold: one owner gets the ruleset built from every instance's share and the import; the others' entries
 * lose their rules and import and point at the owner. Returns the ZONE_SPLIT_ACROSS_ROOTS findings.
 */
function joinSplitZones(
  instances: InstanceAnalysis[],
  inputs: AnalysedInstance["input"][],
  opts: AnalyzeOptions,
  rulesetRoots: Record<string, string>,
  patch: (zone: ZoneReport, p: ZonePatch) => void,
  owners: Map<string, InstanceAnalysis>,
): Finding[] {
  const byZone = new Map<string, Entry[]>();
  instances.forEach((instance, i) => {
    for (const zone of instance.analysis.zones) {
      if (!isLiteralZoneId(zone.zone.zoneId)) continue;
      const list = byZone.get(zone.zone.zoneId) ?? [];
      list.push({ instance, input: inputs[i]!, zone });
      byZone.set(zone.zone.zoneId, list);
    }
  });
  checkRulesetRoots(byZone, instances, rulesetRoots);
  const out: Finding[] = [];
  for (const [zoneId, entries] of byZone) {
    if (entries.length < 2) {
      owners.set(zoneId, entries[0]!.instance);
      continue;
    }
    const owner = ownerOf(zoneId, entries, rulesetRoots);
    owners.set(zoneId, owner.instance);
    const merged = mergeInventories(zoneId, entries.map((e) => e.zone.inventory));
    const joined = analyzeZone(merged, {
      ...opts,
      ...owner.input.options,
      stateKnown: owner.input.stateKnown,
      rulesetResourceNames: { [zoneId]: owner.zone.rulesetResourceName },
    });
    patch(owner.zone.zone, { owner: true, ruleset: joined.zone.ruleset, compatible: joined.zone.compatible, phase1: joined.zone.phase1 });
    owner.zone.rulesetNotes = joined.rulesetNotes;
    owner.zone.rulesetTodos = joined.rulesetTodos;
    const ownerAt = { root: owner.instance.root, workspace: owner.instance.workspace };
    for (const e of entries) {
      if (e === owner) continue;
      patch(e.zone.zone, { owner: false, rulesetIn: ownerAt });
      // The ruleset id is asked for once, where the import is.
      e.instance.analysis.findings = e.instance.analysis.findings.filter((f) => !(f.code === "RULESET_ID_UNKNOWN" && f.zoneId === zoneId));
    }
    const names = entries.map((e) => instanceName(e.instance));
    const anchor = zoneAnchor(owner.zone.inventory);
    const declared = ownsEntryPoint(owner, entries, rulesetRoots);
    const why = declared.length ? ` (it already declares the zone's ${MANAGED_PHASE} ruleset: ${declared.join(", ")})` : "";
    const f = finding(
      "ZONE_SPLIT_ACROSS_ROOTS",
      `zone ${zoneId} has settings in ${entries.length} roots (${names.join(", ")}): its one entry point ruleset and import are planned in ${instanceName(owner.instance)}${why}, with the skip rules from all of them`,
      { zoneId, file: anchor?.file ?? null, line: anchor?.line ?? null },
      { roots: entries.map((e) => ({ root: e.instance.root, workspace: e.instance.workspace })), rulesetIn: ownerAt },
    );
    out.push(Object.assign(f, ownerAt));
  }
  return out;
}

/**
 * `--ruleset-root ZONE_ID=ROOT` naming a root of the run that has nothing of the zone (known offline) would
 * be ignored and the ruleset planned elsewhere: refused instead, naming where the zone is (a root whose zone
 * id only state or a variable knows needs that first). A zone this run does not hold at all (another shard's)
 * is left alone.
 */
function checkRulesetRoots(byZone: Map<string, Entry[]>, instances: InstanceAnalysis[], rulesetRoots: Record<string, string>): void {
  const runRoots = new Set(instances.map((i) => i.root));
  for (const [zoneId, root] of Object.entries(rulesetRoots)) {
    const entries = byZone.get(zoneId) ?? [];
    if (entries.length === 0 || !runRoots.has(root) || entries.some((e) => e.instance.root === root)) continue;
    const where = [...new Set(entries.map((e) => instanceName(e.instance)))].join(", ");
    throw new UserInputError(
      `--ruleset-root ${zoneId}=${root}: root ${root} has nothing of zone ${zoneId} known offline (the zone is in ${where}), so its ruleset cannot go there; if a zone id of ${root} is an expression only state or a variable knows, give it (--state, --var-file, --var) first`,
    );
  }
}

/**
 * A zone whose ruleset the run plans in one root while another root, with nothing of the zone left to
 * migrate, already declares its managed-phase entry point ruleset: importing the planned one would make two
 * roots manage one entry point (each apply overwriting the other), so the skip rules belong in that ruleset.
 * One MANAGED_RULESET_EXISTS per such ruleset, at it, stamped with the planning instance.
 */
function entryPointElsewhereFindings(instances: InstanceAnalysis[], owners: Map<string, InstanceAnalysis>): Finding[] {
  // Each zone's entry points in instance order, gathered once: an estate of thousands of zones and instances
  // walked every instance for every zone (0.84 s of a 100 MB tree's scan, all of it after the build).
  const byZone = new Map<string, { other: InstanceAnalysis; ref: NonNullable<InstanceAnalysis["migratedEntryPoints"]>[number] }[]>();
  for (const other of instances) {
    for (const ref of other.migratedEntryPoints ?? []) {
      if (ref.zoneId === null || !owners.has(ref.zoneId)) continue;
      const list = byZone.get(ref.zoneId);
      if (list) list.push({ other, ref });
      else byZone.set(ref.zoneId, [{ other, ref }]);
    }
  }
  const out: Finding[] = [];
  for (const [zoneId, owner] of owners) {
    // The root's configuration is the same in each of its workspaces: one finding per ruleset block.
    const seen = new Set<string>();
    for (const { other, ref } of byZone.get(zoneId) ?? []) {
      if (other.root === owner.root || seen.has(`${other.root}\0${ref.address}`)) continue;
      seen.add(`${other.root}\0${ref.address}`);
      const f = finding(
        "MANAGED_RULESET_EXISTS",
        `${ref.address} in root ${instanceName(other)} already manages this zone's ${MANAGED_PHASE} entry point: merge the skip rules planned in ${instanceName(owner)} into it there instead of adding and importing a second resource in ${instanceName(owner)} (two roots would manage one ruleset, each apply overwriting the other)`,
        { ref, zoneId },
        { otherRoot: other.root, otherWorkspace: other.workspace, address: ref.address },
      );
      out.push(Object.assign(f, { root: owner.root, workspace: owner.workspace }));
    }
  }
  return out;
}

/**
 * `--ruleset-root` wins; else the first instance (path order) holding the zone's legacy WAF; else the first
 * that already declares the zone's managed-phase entry point ruleset (planning it anywhere else would make two
 * roots manage one entry point); else the first.
 */
function ownerOf(zoneId: string, entries: Entry[], rulesetRoots: Record<string, string>): Entry {
  const chosen = ownValue(rulesetRoots, zoneId);
  const named = chosen !== undefined ? entries.find((e) => e.instance.root === chosen) : undefined;
  if (named) return named;
  return entries.find(hasLegacyWaf) ?? entries.find((e) => managedRulesets(e).length > 0) ?? entries[0]!;
}

function hasLegacyWaf(e: Entry): boolean {
  const inv = e.zone.inventory;
  return inv.packages.length + inv.groups.length + inv.rules.length + inv.overrides.length > 0;
}

function managedRulesets(e: Entry): string[] {
  return e.zone.inventory.rulesets.filter((r) => r.phase === MANAGED_PHASE).map((r) => r.ref.address);
}

/** The entry point rulesets the owner declares, when that (not `--ruleset-root` or a legacy WAF) chose it. */
function ownsEntryPoint(owner: Entry, entries: Entry[], rulesetRoots: Record<string, string>): string[] {
  if (ownValue(rulesetRoots, owner.zone.zone.zoneId) === owner.instance.root) return [];
  if (entries.some(hasLegacyWaf)) return [];
  return managedRulesets(owner);
}

function mergeInventories(zoneId: string, parts: ZoneInventory[]): ZoneInventory {
  const merged: ZoneInventory = { zoneId, zone: parts.find((p) => p.zone)?.zone ?? null, packages: [], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], rulesets: [], zoneWafSettings: [] };
  for (const p of parts) {
    merged.packages.push(...p.packages);
    merged.groups.push(...p.groups);
    merged.rules.push(...p.rules);
    merged.overrides.push(...p.overrides);
    merged.firewallRules.push(...p.firewallRules);
    merged.pageRules.push(...p.pageRules);
    merged.rulesets.push(...p.rulesets);
    merged.zoneWafSettings!.push(...(p.zoneWafSettings ?? []));
  }
  return merged;
}
