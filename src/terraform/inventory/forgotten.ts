// Legacy resources a `removed { lifecycle { destroy = false } }` block forgets (the plan's removed.tf): the
// next apply drops them from state without destroying them, so no live WAF setting is reset.
import type { ConfigTree } from "../config/modules.js";

/** Configuration addresses (a resource or a whole module) that `removed` blocks with `destroy = false` forget. */
export function forgottenAddresses(tree: ConfigTree): string[] {
  const out: string[] = [];
  for (const node of tree.nodes) {
    for (const r of node.dir.removed ?? []) {
      if (r.destroy === false) out.push(node.path ? `${node.path}.${r.from}` : r.from);
    }
  }
  return out;
}
