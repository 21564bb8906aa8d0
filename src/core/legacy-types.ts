// The previous WAF's Terraform types, in one place: every layer that must tell a legacy resource from the
// rest (inventory, removal set, preflight, provider gate, plan) asks here. Pure.
import { parseAddress } from "./address.js";

/** Every managed type of the previous WAF: providers after 3.35 no longer have any of them. */
export const LEGACY_WAF_RESOURCE_TYPES: ReadonlySet<string> = new Set(["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule", "cloudflare_waf_override"]);

/** Managed legacy types whose state entries go in step 5 and whose blocks go in step 6. */
export const LEGACY_BLOCK_TYPES: ReadonlySet<string> = new Set(["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule"]);

/** URI-based overrides: no equivalent in the new WAF; removed first (step 0). */
export const URI_OVERRIDE_TYPE = "cloudflare_waf_override";

/** The legacy data sources, which also disappear from providers after 3.35. */
export const LEGACY_DATA_SOURCES: ReadonlySet<string> = new Set(["cloudflare_waf_packages", "cloudflare_waf_groups", "cloudflare_waf_rules"]);

/**
 * Whether an address (resource or instance, any module path: `module.waf.data.cloudflare_waf_packages.owasp[0]`)
 * names a legacy data source; an address that does not parse names none. PLAN.md, migrate.sh and apply ask
 * this one question to decide whether the import waits until the legacy blocks are gone.
 */
export function isLegacyDataAddress(address: string): boolean {
  try {
    const p = parseAddress(address);
    return p.mode === "data" && LEGACY_DATA_SOURCES.has(p.type);
  } catch {
    return false;
  }
}

/**
 * Certificate types whose blocks stay listed when their count/for_each is known to give no instance (the
 * certificate audit shows such a block as needing nothing, as scan shows a legacy block of no instance).
 */
export const CERTIFICATE_BLOCK_TYPES: ReadonlySet<string> = new Set(["cloudflare_certificate_pack", "cloudflare_total_tls", "cloudflare_custom_hostname", "cloudflare_custom_ssl"]);

/** The resource types the tool reads. Everything else in a tree is skipped. */
export const RELEVANT_TYPES = new Set([
  "cloudflare_waf_package",
  "cloudflare_waf_group",
  "cloudflare_waf_rule",
  "cloudflare_waf_override",
  "cloudflare_firewall_rule",
  "cloudflare_filter",
  "cloudflare_page_rule",
  "cloudflare_zone",
  "cloudflare_ruleset",
  "cloudflare_certificate_pack",
  "cloudflare_total_tls",
  "cloudflare_custom_hostname",
  "cloudflare_custom_ssl",
  // The previous WAF's zone-wide switch (`waf` setting): provider 3/4 and provider 5 spellings.
  "cloudflare_zone_settings_override",
  "cloudflare_zone_setting",
]);

export function isRelevant(mode: "managed" | "data", type: string): boolean {
  return mode === "managed" ? RELEVANT_TYPES.has(type) : LEGACY_DATA_SOURCES.has(type);
}
