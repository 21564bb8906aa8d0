// Import ids of the zone entry point ruleset: `zone/<zone_id>/<ruleset_id>` for providers 3 and 4,
// `zones/<zone_id>/<ruleset_id>` for provider 5 (reference/domain-facts.md section 3).

export const RULESET_ID_PLACEHOLDER = "<RULESET_ID>";

export function rulesetImportId(zoneId: string, rulesetId: string, providerMajor: number): string {
  return `${providerMajor >= 5 ? "zones" : "zone"}/${zoneIdForImport(zoneId)}/${rulesetId}`;
}

/** A zone id the import can name: 32 hexadecimal characters. Anything else is an expression from config. */
export function isLiteralZoneId(zoneId: string): boolean {
  return /^[0-9a-f]{32}$/i.test(zoneId);
}

/**
 * The zone part of an import id: the id itself, or — when only config is known — the expression as a
 * template (`${cloudflare_zone.shop.id}`), which an `import {}` block evaluates at plan time.
 */
export function zoneIdForImport(zoneId: string): string {
  return isLiteralZoneId(zoneId) ? zoneId : "${" + zoneId + "}";
}
