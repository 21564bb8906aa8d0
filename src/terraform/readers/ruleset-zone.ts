// cloudflare_ruleset and cloudflare_zone → core model.
import { normalizeZonePlan } from "../../core/mappings.js";
import { refOf, type ExistingRuleset, type InventoryResource, type ZoneResource } from "../../core/model.js";
import { firstBlock, literalString } from "../config/values.js";

export function readRuleset(r: InventoryResource): ExistingRuleset {
  const a = r.attributes;
  const rules = Array.isArray(a.rules) ? (a.rules as unknown[]) : [];
  return {
    ref: refOf(r),
    kind: literalString(a.kind),
    phase: literalString(a.phase),
    name: literalString(a.name),
    rules: rules
      .filter((x): x is Record<string, unknown> => x !== null && typeof x === "object")
      .map((x) => ({ action: literalString(x.action), expression: literalString(x.expression), description: literalString(x.description) })),
  };
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
