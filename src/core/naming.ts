// Deterministic, valid Terraform identifiers for generated resources.

/**
 * `waf_managed_<zone name>` (`shop.example.com` → `waf_managed_shop_example_com`); without a name, from the
 * zone id: its first 8 characters for a literal id, the referenced name for an expression
 * (`cloudflare_zone.shop.id` → `waf_managed_shop`, `var.zone_id` → `waf_managed_zone_id`).
 */
export function rulesetResourceName(zoneId: string, zoneName: string | null = null): string {
  const fromName = zoneName ? slug(zoneName) : "";
  if (fromName) return `waf_managed_${fromName}`;
  const fromId = slug(zoneBasis(zoneId));
  return fromId ? `waf_managed_${fromId}` : "waf_managed_zone";
}

function zoneBasis(zoneId: string): string {
  const expr = zoneId.replace(/^\$\{/, "").replace(/\}$/, "").trim();
  if (/^[0-9a-f]{32}$/i.test(expr)) return expr.slice(0, 8);
  const ref = /^(?:module\.[\w-]+(?:\[[^\]]*\])?\.)*cloudflare_zone\.([\w-]+)\.id$/.exec(expr);
  if (ref) return ref[1]!;
  const v = /^(?:var|local)\.([\w-]+)$/.exec(expr);
  if (v) return v[1]!;
  return expr.slice(0, 8);
}

/** Lower case letters, digits, `_` and `-`; no leading/trailing separators; "" when nothing is left. */
function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "");
}
