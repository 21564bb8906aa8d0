// Import ids of the zone entry point ruleset: `zone/<zone_id>/<ruleset_id>` for providers 3 and 4,
// `zones/<zone_id>/<ruleset_id>` for provider 5 (reference/domain-facts.md section 3).

export const RULESET_ID_PLACEHOLDER = "<RULESET_ID>";

export function rulesetImportId(zoneId: string, rulesetId: string, providerMajor: number): string {
  return `${providerMajor >= 5 ? "zones" : "zone"}/${zoneId}/${rulesetId}`;
}
