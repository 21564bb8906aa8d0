// Which of a resource's settings the evaluation could not know offline (InventoryResource.unresolved),
// restricted to the attributes a reader uses to decide something. State instances have none.
import type { InventoryResource, UnresolvedSetting } from "../../core/model.js";
import { INSTANCE_ATTRIBUTES, ZONE_ATTRIBUTES } from "../../core/unresolved.js";

export { INSTANCE_ATTRIBUTES, ZONE_ATTRIBUTES };

/**
 * The unresolved settings among `attributes` (paths like `sensitivity` or `actions.disable_security`; an
 * unresolved `actions` as a whole covers every attribute in it). A zone id that evaluates to a resource
 * reference names its zone and is not unresolved.
 */
export function unresolvedSettings(r: InventoryResource, attributes: string[]): UnresolvedSetting[] {
  if (r.inState || !r.unresolved) return [];
  const out: UnresolvedSetting[] = [];
  for (const u of r.unresolved) {
    if (r.references && Object.hasOwn(r.references, u.attribute) && /^(zone_id|zone)$/.test(u.attribute)) continue;
    if (attributes.some((a) => a === u.attribute || a.startsWith(`${u.attribute}.`))) {
      out.push({ attribute: u.attribute, expression: u.expression, reason: u.reason });
    }
  }
  return out;
}

/** `{ unresolved }` when there is any, else nothing: domain objects stay as they were when all is known. */
export function withUnresolved(list: UnresolvedSetting[]): { unresolved?: UnresolvedSetting[] } {
  return list.length ? { unresolved: list } : {};
}

