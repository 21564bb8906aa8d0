// Import ids of the zone entry point ruleset: `zone/<zone_id>/<ruleset_id>` for providers 3 and 4,
// `zones/<zone_id>/<ruleset_id>` for provider 5 (reference/domain-facts.md section 3).

export const RULESET_ID_PLACEHOLDER = "<RULESET_ID>";
/** What commands and import ids hold where a zone id is not known offline. */
export const ZONE_ID_PLACEHOLDER = "<ZONE_ID>";

export function rulesetImportId(zoneId: string, rulesetId: string, providerMajor: number): string {
  return `${providerMajor >= 5 ? "zones" : "zone"}/${zoneIdForImport(zoneId)}/${rulesetId}`;
}

/** A zone id the import can name: 32 hexadecimal characters. Anything else is an expression from config. */
export function isLiteralZoneId(zoneId: string): boolean {
  return /^[0-9a-f]{32}$/i.test(zoneId);
}

/** Roots an expression from config starts with; a zone key starting otherwise may be a domain name. */
const EXPRESSION_ROOTS = /^(var|local|each|count|module|data|path|terraform|self)\./;

/**
 * A zone named by its domain (provider 1.x/2.x `zone = "example.com"`): the zone is known, its id is not.
 * Expression texts never look like one: references have a known root or an underscore (`cloudflare_zone.z.id`).
 */
export function isZoneDomain(zoneId: string): boolean {
  return !EXPRESSION_ROOTS.test(zoneId) && /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(zoneId);
}

/**
 * An expression only a module instance can evaluate (`module.shop.data.cloudflare_zone.this.id`, a zone looked
 * up inside the module): the name of the zone, but nothing an `import {}` block at the root could evaluate.
 */
export function isModuleInternalExpression(zoneId: string): boolean {
  return /^module\.[\w-]+(?:\[(?:"[^"\\]*"|\d+)\])?\.(?:module|data|var|local)\./.test(zoneId);
}

const KEY = String.raw`(?:\[(?:"[^"\\]*"|\d+)\])`;
/** A zone id read by a zone lookup at the root (`data.cloudflare_zone.this.id`, `data.cloudflare_zones.z["a"].zones[0].id`). */
const ROOT_ZONE_LOOKUP = new RegExp(String.raw`^(data\.cloudflare_zones?\.[\w-]+${KEY}?)(?:\.[\w-]+${KEY}*)+$`);

/**
 * The data source a zone id expression reads (`data.cloudflare_zone.this`), at the root or inside a module
 * instance (`module.shop.data.cloudflare_zone.this.id`); null for anything else.
 */
export function zoneLookupOf(zoneId: string): { lookup: string; module: string | null } | null {
  const split = splitModulePrefix(zoneId);
  const root = split && ROOT_ZONE_LOOKUP.exec(split.expression);
  return root ? { lookup: root[1]!, module: split.module } : null;
}

const MODULE_PREFIX = new RegExp(String.raw`^((?:module\.[\w-]+${KEY}?\.)*)(.*)$`);

/**
 * `module.shop["a"].module.inner.data.cloudflare_zone.this.id` → the module instance path
 * (`module.shop["a"].module.inner`, null for none) and the expression inside it.
 */
export function splitModulePrefix(zoneId: string): { module: string | null; expression: string } | null {
  const m = MODULE_PREFIX.exec(zoneId);
  return m ? { module: m[1] ? m[1].slice(0, -1) : null, expression: m[2]! } : null;
}

/** A root-module zone lookup's id: an expression the root's own HCL (ruleset.tf, an import id) can use as written. */
export function isRootZoneLookup(zoneId: string): boolean {
  return ROOT_ZONE_LOOKUP.test(zoneId);
}

/**
 * The zone part of an import id: the id itself, or — when only config is known — the expression as a
 * template (`${cloudflare_zone.shop.id}`), which an `import {}` block evaluates at plan time. A domain
 * name, or an expression of a module's inside, is none Terraform could evaluate there: the id's placeholder
 * stands there.
 */
export function zoneIdForImport(zoneId: string): string {
  if (isLiteralZoneId(zoneId)) return zoneId;
  return isZoneDomain(zoneId) || isModuleInternalExpression(zoneId) ? ZONE_ID_PLACEHOLDER : "${" + zoneId + "}";
}
