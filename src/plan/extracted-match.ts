// `--from-cf-terraforming`: which of cf-terraforming's extracted managed rulesets serves which zone, and the
// rule-order findings of the ones a plan imports into (they become ruleset.tf as written).
import path from "node:path";
import { isLiteralZoneId } from "../core/import-id.js";
import { MANAGED_PHASE } from "../core/mappings.js";
import { extractedInstance, extractedInstances, extractedInstanceZones, isRepeated } from "../core/extracted-instance.js";
import type { Finding, InputError } from "../core/model.js";
import { inputRecord } from "../core/null-proto.js";
import { skipAfterExecuteFindings } from "../core/ruleset-order.js";
import { finding } from "../core/findings.js";
import type { ExtractedRuleset } from "../terraform/cf-terraforming/read.js";

/**
 * Zone id → the extracted resource whose ruleset it gets. A resource with count or for_each whose zone_id is
 * an expression serves each zone one of its instances names offline (`for_each = { shop = "<id>" }`,
 * `zone_id = each.value`): one resource for several zones of the root. `workspace`: what
 * `terraform.workspace` is, null when not known.
 */
export function matchExtracted(extracted: ExtractedRuleset[], zoneIds: string[], workspace: string | null = null): Record<string, string> {
  const names = inputRecord<string>();
  for (const e of extracted) if (e.zoneId && zoneIds.includes(e.zoneId)) names[e.zoneId] = e.resourceName;
  for (const e of extracted) {
    if (e.zoneId) continue;
    for (const zone of extractedInstanceZones(e.repetition, workspace)) if (zoneIds.includes(zone) && !Object.hasOwn(names, zone)) names[zone] = e.resourceName;
  }
  // One resource and one zone: it serves that zone unless both ids are known and differ (over several
  // instances, another instance's zone: it is that one's).
  const only = extracted[0];
  const zone = zoneIds[0];
  if (extracted.length === 1 && zoneIds.length === 1 && Object.keys(names).length === 0 && !(only!.zoneId && isLiteralZoneId(zone!))) names[zone!] = only!.resourceName;
  return names;
}

/** RULESET_SKIP_AFTER_EXECUTE for the extracted rulesets this instance imports into (`names`: zone → resource name). */
export function extractedOrderFindings(extracted: ExtractedRuleset[], names: Record<string, string>, file: string): Finding[] {
  const zoneOf = new Map(Object.entries(names).map(([zone, name]) => [name, zone]));
  return extracted
    .filter((e) => zoneOf.has(e.resourceName))
    .flatMap((e) => {
      const address = `cloudflare_ruleset.${e.resourceName}`;
      const ref = { address, configAddress: address, type: "cloudflare_ruleset", file: file.split(path.sep).join("/"), line: e.line, zoneId: zoneOf.get(e.resourceName)!, inConfig: false, inState: false };
      return skipAfterExecuteFindings({ ref, kind: "zone", phase: MANAGED_PHASE, name: null, rules: e.rules });
    });
}

/**
 * Per zone, the instance of its extracted resource the import goes to when the resource has count or
 * for_each (core/extracted-instance.ts). One that cannot be known offline is an input error at the resource
 * in `file` (the plan is then incomplete: no artifact, no script), and its import keeps the bare resource
 * address, never a guessed instance.
 */
export function extractedInstanceSuffixes(
  extracted: ExtractedRuleset[],
  names: Record<string, string>,
  /** The instance's workspace, and whether its state says so (else `terraform.workspace` is not known offline). */
  at: { workspace: string; workspaceKnown: boolean },
  file: string,
  errors: InputError[],
): Record<string, string> {
  const workspace = at.workspace;
  const suffixes = inputRecord<string>();
  for (const [zone, name] of Object.entries(names)) {
    const e = extracted.find((x) => x.resourceName === name);
    // Without count or for_each it keeps the default: the bare address, or `[0]` once limited to a workspace (withCount).
    if (!e || !isRepeated(e.repetition)) continue;
    const instance = extractedInstance(e.repetition, zone, at.workspaceKnown ? workspace : null);
    if (instance.ok) suffixes[zone] = instance.suffix;
    else {
      suffixes[zone] = "";
      errors.push({
        file,
        line: e.line,
        column: null,
        message: `cloudflare_ruleset.${name} (zone ${zone}, workspace ${workspace}): the instance to import into is not known: ${instance.reason}. Nothing is imported into a guessed instance: remove its count/for_each (one resource per zone), or make the instance of this zone known offline (a literal map keyed by workspace, zone_id = each.value)`,
      });
    }
  }
  return suffixes;
}

/**
 * A kept resource with count or for_each that serves zones of several workspaces of one root: step 2 copies
 * each workspace's ruleset.tf to a file of its own in that root, and the resource, left as written (its
 * count/for_each is not rewritten), would be declared in each of them: terraform refuses the root
 * ("Duplicate resource configuration"), and in every workspace it would manage the other workspaces' zones
 * too. An input error at the resource in `file` (nothing is written), naming the workspaces.
 */
export function extractedSharedByWorkspaces(
  extracted: ExtractedRuleset[],
  /** Per planned instance limited to its workspace: its root directory, workspace, and zone → resource name. */
  uses: { dir: string; root: string; workspace: string; names: Record<string, string> }[],
  file: string,
  errors: InputError[],
): Set<string> {
  /** `resourceName` NUL `dir` of each resource refused here (sharedKey). */
  const refused = new Set<string>();
  for (const e of extracted) {
    if (!isRepeated(e.repetition)) continue;
    const byDir = new Map<string, { root: string; workspaces: string[] }>();
    for (const u of uses) {
      if (!Object.values(u.names).includes(e.resourceName)) continue;
      const at = byDir.get(u.dir) ?? { root: u.root, workspaces: [] };
      if (!at.workspaces.includes(u.workspace)) at.workspaces.push(u.workspace);
      byDir.set(u.dir, at);
    }
    for (const [dir, { root, workspaces }] of byDir) {
      if (workspaces.length < 2) continue;
      refused.add(sharedKey(e.resourceName, dir));
      const ws = [...workspaces].sort();
      errors.push({
        file,
        line: e.line,
        column: null,
        message: `cloudflare_ruleset.${e.resourceName} has ${e.repetition.forEach !== undefined ? "for_each" : "count"} and serves zones of workspaces ${ws.join(", ")} of root ${root}: each workspace's ruleset.tf would declare it (left as written), and with their copies in one root terraform refuses the duplicate resource; in every workspace it would also manage the other workspaces' zones. Nothing is written: write one resource per zone, without count/for_each (each then goes to its own workspace's file, limited to that workspace)`,
      });
    }
  }
  return refused;
}

/** The key extractedSharedByWorkspaces refuses a resource in a root directory under. */
export function sharedKey(resourceName: string, dir: string): string {
  return `${resourceName}\u0000${dir}`;
}

/**
 * A kept resource with count or for_each that this plan imports into must have no other instance: copied
 * as written, its instances that no zone of this plan is imported into, and that this state does not hold
 * already, are created by the next `terraform plan`/`apply` in this root and workspace: a second entry
 * point for a zone whose WAF another workspace or root manages, or a managed ruleset nobody asked for. An
 * input error at the resource in `file` (nothing is written), naming those instances and their zones.
 * Instances not known offline are left to extractedInstanceSuffixes (its error says why).
 */
export function extractedUnplannedInstances(
  extracted: ExtractedRuleset[],
  use: {
    root: string;
    workspace: string;
    /** What `terraform.workspace` is offline (null when the state does not say). */
    knownWorkspace: string | null;
    /** Zone → resource name, and zone → instance suffix, of this planned instance. */
    names: Record<string, string>;
    suffixes: Record<string, string>;
    /** The addresses this instance's state holds; null when no state was read. */
    inState: ReadonlySet<string> | null;
  },
  file: string,
  errors: InputError[],
): void {
  for (const e of extracted) {
    if (!isRepeated(e.repetition)) continue;
    const zones = Object.keys(use.names).filter((z) => use.names[z] === e.resourceName);
    if (zones.length === 0) continue;
    // An instance of a zone that is not known: already refused there.
    if (zones.some((z) => !use.suffixes[z])) continue;
    const instances = extractedInstances(e.repetition, use.knownWorkspace);
    if (instances === null) continue;
    const address = `cloudflare_ruleset.${e.resourceName}`;
    const imported = new Set(zones.map((z) => use.suffixes[z]!));
    const created = instances.filter((i) => !imported.has(i.suffix) && !use.inState?.has(`${address}${i.suffix}`));
    if (created.length === 0) continue;
    const what = e.repetition.forEach !== undefined ? "for_each" : "count";
    const show = (i: { suffix: string; zone: string | null }) => `${i.suffix} (${i.zone !== null ? `zone ${i.zone}` : "zone_id not known offline"})`;
    const importedText = instances.filter((i) => imported.has(i.suffix)).map(show).join(", ");
    errors.push({
      file,
      line: e.line,
      column: null,
      message:
        `${address} has ${what} with ${instances.length} instances, and the plan of root ${use.root} (workspace ${use.workspace}) imports only ${importedText}: ` +
        `${created.map(show).join(", ")} ${created.length === 1 ? "is" : "are"} imported by no zone of this plan and not in ${use.inState === null ? "any state (none was read)" : "this state"}, ` +
        `so once ruleset.tf is copied as written, terraform plan/apply in workspace ${use.workspace} would create ${created.length === 1 ? "it" : "them"} ` +
        `(a second entry point for a zone whose WAF another workspace or root manages, or a managed ruleset nobody asked for). Nothing is written: ` +
        `write one resource per zone, without count/for_each, or give its ${what} only the zones this plan imports ` +
        `(for example filtered by workspace: for_each = { for k, v in {...} : k => v if k == terraform.workspace }; in a root several workspaces share, declared once in the root, not in each workspace's file)`,
    });
  }
}

/**
 * VALUE_UNRESOLVED for each kept resource whose zone_id is an expression that serves none of this root's
 * zones while it has several (matchExtracted could not tell which offline): a generated ruleset is written
 * for each zone instead, and the finding says so, never silently.
 */
export function extractedUnusedFindings(extracted: ExtractedRuleset[], names: Record<string, string>, zoneIds: string[], workspace: string | null, file: string): Finding[] {
  if (zoneIds.length < 2) return [];
  const used = new Set(Object.values(names));
  return extracted
    .filter((e) => !e.zoneId && !used.has(e.resourceName))
    .map((e) => {
      const address = `cloudflare_ruleset.${e.resourceName}`;
      const instance = isRepeated(e.repetition) ? extractedInstance(e.repetition, zoneIds[0]!, workspace) : null;
      const why = instance && !instance.ok ? instance.reason : `its zone_id (${e.zoneIdExpression ?? "an expression"}) is not known offline`;
      return finding(
        "VALUE_UNRESOLVED",
        `${address} (kept from cf-terraforming's output) is not used: ${why}, so which of this root's ${zoneIds.length} zones (${zoneIds.join(", ")}) it serves is not known offline; a generated ruleset is written for each instead. Make its for_each literal (zone_id = each.value) or write one resource per zone with a literal zone_id`,
        { file: file.split(path.sep).join("/"), line: e.line, zoneId: null },
        { resource: address },
        "warning",
      );
    });
}
