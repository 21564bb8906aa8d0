// cloudflare_waf_package / _group / _rule / _override → the core's legacy WAF model.
import { classifyPackage, classifyRule, classifyGroup } from "../../core/classify.js";
import { refOf, type InventoryResource, type LegacyWafGroup, type LegacyWafOverride, type LegacyWafPackage, type LegacyWafRule } from "../../core/model.js";
import { literalBool, literalString, literalStringList, literalStringMap } from "../values.js";

export function readPackage(r: InventoryResource): LegacyWafPackage {
  const a = r.attributes;
  const packageId = literalString(a.package_id);
  return {
    ref: refOf(r),
    packageId,
    sensitivity: literalString(a.sensitivity),
    actionMode: literalString(a.action_mode),
    kind: classifyPackage({ packageId }),
  };
}

export function readGroup(r: InventoryResource, owaspPackageIds: Set<string>): LegacyWafGroup {
  const a = r.attributes;
  const g = { groupId: literalString(a.group_id), packageId: literalString(a.package_id), mode: literalString(a.mode) ?? (a.mode === undefined ? "on" : null) };
  return { ref: refOf(r), ...g, kind: classifyGroup(g, { owaspPackageIds }) };
}

export function readRule(r: InventoryResource, owaspPackageIds: Set<string>): LegacyWafRule {
  const a = r.attributes;
  const rule = { ruleId: literalString(a.rule_id), packageId: literalString(a.package_id), groupId: literalString(a.group_id), mode: literalString(a.mode) };
  return { ref: refOf(r), ...rule, kind: classifyRule(rule, { owaspPackageIds }) };
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
  };
}
