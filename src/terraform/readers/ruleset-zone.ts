// cloudflare_ruleset and cloudflare_zone → core model.
import { normalizeZonePlan } from "../../core/mappings.js";
import { refOf, type ExistingRuleset, type ExistingRulesetRule, type InventoryResource, type ZoneResource } from "../../core/model.js";
import { firstBlock, literalString } from "../config/values.js";
import { unresolvedSettings, withUnresolved, ZONE_ATTRIBUTES } from "./unresolved.js";

export function readRuleset(r: InventoryResource): ExistingRuleset {
  const a = r.attributes;
  const rules = a.rules;
  return {
    ref: refOf(r),
    kind: literalString(a.kind),
    phase: literalString(a.phase),
    name: literalString(a.name),
    rules: readRulesetRules(rules),
    ...withUnresolved(unresolvedSettings(r, ["phase", ...ZONE_ATTRIBUTES])),
  };
}

/** The `rules` of a cloudflare_ruleset (blocks in 3/4, a list of objects in 5), in evaluation order. */
export function readRulesetRules(rules: unknown): ExistingRulesetRule[] {
  return (Array.isArray(rules) ? (rules as unknown[]) : [])
    .filter((x): x is Record<string, unknown> => x !== null && typeof x === "object")
    .map((x) => {
      const action = literalString(x.action);
      const params = firstBlock(x.action_parameters);
      const rule: ExistingRulesetRule = { action, expression: literalString(x.expression), description: literalString(x.description) };
      if (action === "execute") rule.executes = params ? literalString(params.id) : null;
      if (action === "skip") rule.skips = skipTargets(params);
      return rule;
    });
}

/** What a skip rule's action_parameters skip, as far as literals say (blocks in 3/4, attributes in 5). */
function skipTargets(params: Record<string, unknown> | null): ExistingRulesetRule["skips"] {
  if (!params) return null;
  if (literalString(params.ruleset) === "current") return { current: true, rulesets: [] };
  const ids: string[] = [];
  if (Array.isArray(params.rulesets)) {
    for (const v of params.rulesets) {
      const id = literalString(v);
      if (id === null) return null;
      ids.push(id);
    }
  }
  // `rules = { "<ruleset id>" = "<rule ids>" }`: skips rules of those managed rulesets.
  const rules = firstBlock(params.rules);
  if (rules) ids.push(...Object.keys(rules));
  return ids.length ? { current: false, rulesets: ids } : null;
}

export function readZone(r: InventoryResource): ZoneResource {
  const a = r.attributes;
  // Provider 3/4: `plan = "enterprise"`; provider 5: `plan = { legacy_id = "enterprise", name = "Enterprise Website" }`.
  const planObj = firstBlock(a.plan);
  const planValue = literalString(a.plan) ?? literalString(planObj?.legacy_id) ?? literalString(planObj?.name);
  const plan = planValue === null ? null : normalizeZonePlan(planValue);
  return {
    ref: refOf(r),
    id: r.inState ? literalString(a.id) : null,
    name: literalString(a.zone) ?? literalString(a.name),
    plan: plan === "unknown" ? null : plan,
  };
}
