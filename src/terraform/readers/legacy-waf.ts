// cloudflare_waf_package / _group / _rule / _override → the core's legacy WAF model.
import { classifyPackage, classifyRule, classifyGroup } from "../../core/classify.js";
import { refOf, type InventoryResource, type LegacyPackageKind, type LegacyWafGroup, type LegacyWafOverride, type LegacyWafPackage, type LegacyWafRule } from "../../core/model.js";
import { literalBool, literalString, literalStringList, literalStringMap } from "../config/values.js";
import { INSTANCE_ATTRIBUTES, unresolvedSettings, withUnresolved, ZONE_ATTRIBUTES } from "./unresolved.js";

export function readPackage(r: InventoryResource): LegacyWafPackage {
  const a = r.attributes;
  const packageId = literalString(a.package_id);
  return {
    ref: refOf(r),
    packageId,
    sensitivity: literalString(a.sensitivity),
    actionMode: literalString(a.action_mode),
    kind: classifyPackage({ packageId }),
    ...withUnresolved(unresolvedSettings(r, ["sensitivity", "action_mode", ...ZONE_ATTRIBUTES, ...INSTANCE_ATTRIBUTES])),
  };
}

/** `packageHint`: what the Terraform around the resource says about its package (readers/package-kind.ts). */
export function readGroup(r: InventoryResource, owaspPackageIds: Set<string>, packageHint: LegacyPackageKind = "unknown"): LegacyWafGroup {
  const a = r.attributes;
  // Unset or null (`lookup(each.value, "mode", null)`: terraform treats null as unset): the provider's default, on.
  const g = { groupId: literalString(a.group_id), packageId: literalString(a.package_id), mode: literalString(a.mode) ?? (a.mode === undefined || a.mode === null ? "on" : null) };
  return { ref: refOf(r), ...g, kind: orHint(classifyGroup(g, { owaspPackageIds }), packageHint), ...withUnresolved(unresolvedSettings(r, ["group_id", "mode", ...ZONE_ATTRIBUTES, ...INSTANCE_ATTRIBUTES])) };
}

export function readRule(r: InventoryResource, owaspPackageIds: Set<string>, packageHint: LegacyPackageKind = "unknown"): LegacyWafRule {
  const a = r.attributes;
  const rule = { ruleId: literalString(a.rule_id), packageId: literalString(a.package_id), groupId: literalString(a.group_id), mode: literalString(a.mode) };
  // The package decides before the mode vocabulary or the id ranges: only fall back to them without it.
  const kind = packageHint !== "unknown" && classifyGroup(rule, { owaspPackageIds }) === "unknown" ? packageHint : classifyRule(rule, { owaspPackageIds });
  return { ref: refOf(r), ...rule, kind, ...withUnresolved(unresolvedSettings(r, ["rule_id", "mode", ...ZONE_ATTRIBUTES, ...INSTANCE_ATTRIBUTES])) };
}

function orHint(kind: LegacyPackageKind, hint: LegacyPackageKind): LegacyPackageKind {
  return kind === "unknown" ? hint : kind;
}

export function readOverride(r: InventoryResource): LegacyWafOverride {
  const a = r.attributes;
  return {
    ref: refOf(r),
    urls: literalStringList(a.urls).values ?? [],
    rules: literalStringMap(a.rules) ?? {},
    groups: literalStringMap(a.groups) ?? {},
    rewriteAction: literalStringMap(a.rewrite_action) ?? {},
    paused: literalBool(a.paused),
    description: literalString(a.description),
    // Any override blocks its zone's migration, whatever it sets: what matters is whether it exists, and where.
    ...withUnresolved(unresolvedSettings(r, [...ZONE_ATTRIBUTES, ...INSTANCE_ATTRIBUTES])),
  };
}
