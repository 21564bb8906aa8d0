// Light evaluation of the expressions that usually carry a zone id: `var.x` (through module inputs and
// variable defaults), `local.x`, and `cloudflare_zone.<name>.id` (through state). Anything else, or any
// value that depends on count/for_each, stays unresolved: state is the source of truth for those.
import type { ModuleNode } from "./modules.js";
import type { StateInstance } from "./state.js";
import { expressionText, literalString } from "./values.js";
import { ownValue } from "../core/null-proto.js";

const MAX_HOPS = 16;

export type Resolved = { literal: string } | { reference: string } | null;

/**
 * A literal value, or a canonical reference (`cloudflare_zone.shop.id`, `module.waf.cloudflare_zone.z.id`)
 * that names the same thing wherever it was written, so resources that share a zone group together even
 * when only config is known. null when the value depends on something else.
 */
export function resolveValue(
  value: unknown,
  node: ModuleNode,
  stateLookup: (configAddress: string) => StateInstance[],
  hops = 0,
): Resolved {
  if (hops > MAX_HOPS) return null;
  const lit = literalString(value);
  if (lit !== null) return { literal: lit };
  const expr = expressionText(value);
  if (expr === null) return null;

  let m = /^var\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(expr);
  if (m) {
    const name = m[1]!;
    if (node.call && Object.hasOwn(node.call.inputs, name) && node.parent) {
      return resolveValue(node.call.inputs[name], node.parent, stateLookup, hops + 1);
    }
    const def = ownValue(node.dir.variables, name);
    return def && Object.hasOwn(def, "default") ? resolveValue(def.default, node, stateLookup, hops + 1) : null;
  }
  m = /^local\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(expr);
  if (m) {
    const name = m[1]!;
    return Object.hasOwn(node.dir.locals, name) ? resolveValue(node.dir.locals[name], node, stateLookup, hops + 1) : null;
  }
  m = /^cloudflare_zone\.([A-Za-z_][A-Za-z0-9_-]*)\.id$/.exec(expr);
  if (m) {
    const addr = node.path ? `${node.path}.cloudflare_zone.${m[1]}` : `cloudflare_zone.${m[1]}`;
    const insts = stateLookup(addr);
    const id = insts.length === 1 ? insts[0]!.attributes.id : null;
    return typeof id === "string" ? { literal: id } : { reference: `${addr}.id` };
  }
  return null;
}
