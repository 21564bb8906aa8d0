// The previous WAF of one zone as its Terraform configures it: what reviewers compare with the generated
// ruleset (the HTML report shows the two side by side). Pure: a projection of the zone's inventory with
// each item's address and file:line; values not known offline stay null (the zone's `unresolved` says why).
import type { ZoneInventory } from "./analyze.js";
import { classifyGroup, classifyRule, type ClassifyContext } from "./classify.js";
import type { ResourceRef, ZoneLegacy, ZoneLegacyItem } from "./model.js";

function at(ref: ResourceRef): ZoneLegacyItem {
  return { address: ref.address, file: ref.file, line: ref.line };
}

/** `ctx`: the zone's OWASP package ids, so that a group or rule the reader could not place is classified as analyze does. */
export function zoneLegacy(z: ZoneInventory, ctx: ClassifyContext): ZoneLegacy {
  return {
    packages: z.packages.map((p) => ({ ...at(p.ref), packageId: p.packageId, sensitivity: p.sensitivity, actionMode: p.actionMode, kind: p.kind })),
    groups: z.groups.map((g) => ({ ...at(g.ref), groupId: g.groupId, mode: g.mode, kind: g.kind !== "unknown" ? g.kind : classifyGroup(g, ctx) })),
    rules: z.rules.map((r) => ({ ...at(r.ref), ruleId: r.ruleId, groupId: r.groupId, mode: r.mode, kind: r.kind !== "unknown" ? r.kind : classifyRule(r, ctx) })),
    overrides: z.overrides.map((o) => ({ ...at(o.ref), urls: o.urls, description: o.description, paused: o.paused })),
    firewallRules: z.firewallRules.map((f) => ({
      ...at(f.ref),
      action: f.action,
      products: f.products,
      expression: f.expression,
      description: f.description,
      paused: f.paused,
    })),
    pageRules: z.pageRules.map((p) => ({ ...at(p.ref), target: p.target, disableSecurity: p.disableSecurity, waf: p.waf, status: p.status })),
    zoneWafSettings: (z.zoneWafSettings ?? []).map((s) => ({ ...at(s.ref), value: s.value, expression: s.expression })),
  };
}
