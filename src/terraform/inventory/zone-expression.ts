// The name of a zone whose id is not known offline: its expression. Instances of one block (count,
// for_each, or a module called with them) are different zones in practice, so the expression is written
// as the root would write it for that instance: `var.zone_id` in module.waf["shop"] is the caller's
// `data.cloudflare_zones.z[each.key].zones[0].id` with each.key = "shop", so the zone is
// `data.cloudflare_zones.z["shop"].zones[0].id`, and module.waf["blog"]'s is another zone.
import type { InstanceBinding, ModuleInstance } from "../config/resolve.js";
import { expressionText } from "../config/values.js";

const BARE_VARIABLE = /^var\.([A-Za-z_][\w-]*)$/;

export function unresolvedZoneExpression(v: unknown, mi: ModuleInstance | undefined, binding: InstanceBinding): string | null {
  const written = expressionText(v) ?? (typeof v === "string" ? v : null);
  if (written === null || !mi) return written;
  let text = withBinding(written, binding);
  // A module input passed straight through: the caller's argument, with the caller's instance.
  for (let at = mi; at.parent && at.node.call; at = at.parent) {
    const name = BARE_VARIABLE.exec(text)?.[1];
    if (name === undefined || !Object.hasOwn(at.node.call.inputs, name)) break;
    const input = expressionText(at.node.call.inputs[name]);
    if (input === null) break;
    text = withBinding(input, at.binding);
  }
  return text;
}

/** `count.index`, `each.key` (and a string `each.value`) replaced by this instance's known values. */
function withBinding(text: string, b: InstanceBinding): string {
  let out = text;
  if (typeof b.count === "number") out = out.replace(/\bcount\.index\b/g, String(b.count));
  const key = b.each?.key;
  if (typeof key === "string") out = out.replace(/\beach\.key\b/g, JSON.stringify(key));
  const value = b.each?.value;
  if (typeof value === "string") out = out.replace(/\beach\.value\b(?![.[])/g, JSON.stringify(value));
  return out;
}
