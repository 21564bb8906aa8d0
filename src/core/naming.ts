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
  return readableBasis(expr);
}

/**
 * Words of an unresolved expression that say which zone it is, never a cut of its text (`data.cloudflare_zone
 * .main.id` gave `data_clo`): the names and keys it mentions, without Terraform's own vocabulary, the last
 * two of them (`data.cloudflare_zones.main.zones[0].id` → `main`, `module.dns["shop"].zone_id` → `shop_zone_id`,
 * `each.value.zone_id` → `zone_id`). Stable: the same expression always gives the same words.
 */
function readableBasis(expr: string): string {
  const words = (expr.match(/"[^"]*"|[A-Za-z_][\w-]*/g) ?? [])
    .map((w) => w.replace(/^"|"$/g, ""))
    .filter((w) => w !== "" && !NOISE.has(w.toLowerCase()) && !/^cloudflare_/.test(w));
  const picked = words.slice(-2).join("_");
  // An identifier is read at a glance; 40 characters keep `waf_managed_…` well under any display width.
  const short = slug(picked).slice(0, 40).replace(/[_-]+$/, "");
  return short || "zone";
}

/** Terraform's own words and the functions that wrap a zone id: they tell nothing about which zone. */
const NOISE = new Set([
  "data", "var", "local", "module", "each", "value", "key", "count", "index", "self", "path", "id", "zones", "zone",
  "lookup", "try", "coalesce", "one", "element", "tostring", "values", "keys", "null", "true", "false",
]);

/** Lower case letters, digits, `_` and `-`; no leading/trailing separators; "" when nothing is left. */
function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "");
}
