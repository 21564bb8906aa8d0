// The previous WAF's Terraform types, in one place: every layer that must tell a legacy resource from the
// rest (inventory, removal set, preflight, provider gate, plan) asks here. Pure data.

/** Every managed type of the previous WAF: providers after 3.35 no longer have any of them. */
export const LEGACY_WAF_RESOURCE_TYPES: ReadonlySet<string> = new Set(["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule", "cloudflare_waf_override"]);

/** Managed legacy types whose state entries go in step 5 and whose blocks go in step 6. */
export const LEGACY_BLOCK_TYPES: ReadonlySet<string> = new Set(["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule"]);

/** URI-based overrides: no equivalent in the new WAF; removed first (step 0). */
export const URI_OVERRIDE_TYPE = "cloudflare_waf_override";

/** The legacy data sources, which also disappear from providers after 3.35. */
export const LEGACY_DATA_SOURCES: ReadonlySet<string> = new Set(["cloudflare_waf_packages", "cloudflare_waf_groups", "cloudflare_waf_rules"]);
