// Deterministic, valid Terraform identifiers for generated resources.

/** `waf_managed_<zone name>` (dots become underscores), or `waf_managed_<first 8 of the zone id>`. */
export function rulesetResourceName(zoneId: string, zoneName: string | null): string {
  const basis = zoneName && zoneName.trim() !== "" ? zoneName : zoneId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8) || "zone";
  return `waf_managed_${toIdentifierPart(basis)}`;
}

/** Letters, digits, `_` and `-` only; never empty. */
export function toIdentifierPart(s: string): string {
  const cleaned = s
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return cleaned === "" ? "x" : cleaned;
}
