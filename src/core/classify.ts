// Tells offline whether a legacy group or rule belongs to the OWASP core rule set or the Cloudflare Managed
// Ruleset. Real package ids differ per zone, so the decision uses, in order: a package the zone's config
// declares with anomaly settings, the documented OWASP package id, the rule's mode vocabulary, and the rule
// id ranges (OWASP 2.x rules are 9xxxxx or `URI-…`; Cloudflare managed rules are 100xxx and up).
import { CLOUDFLARE_RULE_MODES, KNOWN_OWASP_PACKAGE_IDS } from "./mappings.js";
import type { LegacyPackageKind } from "./model.js";

export interface ClassifyContext {
  /** Package ids known to be the OWASP package in this zone (from `cloudflare_waf_package` resources). */
  owaspPackageIds: Set<string>;
}

export function classifyPackageId(packageId: string | null, ctx: ClassifyContext): LegacyPackageKind {
  if (!packageId) return "unknown";
  if (ctx.owaspPackageIds.has(packageId) || KNOWN_OWASP_PACKAGE_IDS.has(packageId)) return "owasp";
  return "unknown";
}

export function classifyRule(
  rule: { ruleId: string | null; packageId: string | null; mode: string | null },
  ctx: ClassifyContext,
): LegacyPackageKind {
  const byPackage = classifyPackageId(rule.packageId, ctx);
  if (byPackage !== "unknown") return byPackage;
  const mode = rule.mode?.toLowerCase() ?? null;
  if (mode && CLOUDFLARE_RULE_MODES.has(mode)) return "cloudflare";
  const id = rule.ruleId ?? "";
  if (/^URI-/i.test(id) || /^9\d{5}$/.test(id)) return "owasp";
  if (/^1\d{5,}$/.test(id)) return "cloudflare";
  if (mode === "on" || mode === "off") return "owasp";
  return "unknown";
}

export function classifyGroup(group: { packageId: string | null }, ctx: ClassifyContext): LegacyPackageKind {
  return classifyPackageId(group.packageId, ctx);
}

/**
 * Every `cloudflare_waf_package` Terraform can manage is the anomaly (OWASP) package: only that package
 * accepts sensitivity and action_mode, and the provider sends both (with defaults) on every update.
 */
export function classifyPackage(_p: { packageId: string | null }): LegacyPackageKind {
  return "owasp";
}
