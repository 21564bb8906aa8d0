// The name of a zone whose id is not known offline: its expression. Instances of one block (count,
// for_each, or a module called with them) are different zones in practice, so the expression is written
// as the root would write it for that instance: `var.zone_id` in module.waf["shop"] is the caller's
// `data.cloudflare_zones.z[each.key].zones[0].id` with each.key = "shop", so the zone is
// `data.cloudflare_zones.z["shop"].zones[0].id`, and module.waf["blog"]'s is another zone.
// An expression that only means something inside its module (`data.cloudflare_zone.this.id` looked up from
// var.domain, a local) is named with the module instance it is in (`module.shop.data.cloudflare_zone.this.id`),
// so two instances of a module are one zone only when their expressions are the same text at the root.
import type { InstanceBinding, ModuleInstance } from "../config/resolve.js";
import { expressionText } from "../config/values.js";

const BARE_VARIABLE = /^var\.([A-Za-z_][\w-]*)$/;

export function unresolvedZoneExpression(v: unknown, mi: ModuleInstance | undefined, binding: InstanceBinding, forEach?: unknown): string | null {
  const written = expressionText(v) ?? (typeof v === "string" ? v : null);
  if (written === null || !mi) return written;
  let text = withBinding(written, binding, forEach);
  let at = mi;
  // A module input passed straight through: the caller's argument, with the caller's instance.
  for (; at.parent && at.node.call; at = at.parent) {
    const name = BARE_VARIABLE.exec(text)?.[1];
    if (name === undefined || !Object.hasOwn(at.node.call.inputs, name)) break;
    const input = expressionText(at.node.call.inputs[name]);
    if (input === null) break;
    text = withBinding(input, at.binding, at.node.call.forEach);
  }
  // Still an expression of a module (not of a root): it means something only in that module instance.
  if (at.parent) text = `${at.path}.${text}`;
  return text;
}

/**
 * `count.index`, `each.key` and `each.value` replaced by this instance's known values; a `each.value` that is
 * no string is the for_each collection at the key (`each.value.zone_id` is `local.zones["shop"].zone_id`,
 * `var.shops[each.key]` while the keys are unknown).
 */
function withBinding(text: string, b: InstanceBinding, forEach?: unknown): string {
  let out = text;
  if (typeof b.count === "number") out = out.replace(/\bcount\.index\b/g, () => String(b.count));
  if (!b.each) return out;
  const key = b.each.key;
  const collection = forEach === undefined ? null : expressionText(forEach);
  const at = (k: string) => `${collection !== null && TRAVERSAL.test(collection) ? collection : `(${collection})`}[${k}]`;
  if (typeof key === "string") {
    const value = b.each.value;
    if (typeof value === "string") out = out.replace(/\beach\.value\b(?![.[])/g, () => JSON.stringify(value));
    if (collection !== null) out = out.replace(/\beach\.value\b/g, () => at(JSON.stringify(key)));
    out = out.replace(/\beach\.key\b/g, () => JSON.stringify(key));
  } else if (collection !== null) {
    // Keys not known offline: `each.value` of two for_each over different maps are not the same zone.
    out = out.replace(/\beach\.value\b/g, () => at("each.key"));
  }
  return out;
}

/** A plain reference (`var.zones`, `local.zones["eu"]`), which can be indexed as written. */
const TRAVERSAL = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\["[^"\\]*"\]|\[\d+\])*$/;
