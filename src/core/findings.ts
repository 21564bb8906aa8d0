// The stable finding codes of DESIGN.md section 4 and the severity arithmetic of --fail-on.
// Codes are never renamed; new ones are added at the end of their group.
import type { FailOn, Finding, ResourceRef, Severity } from "./model.js";
import { compareText } from "./text-order.js";

export const FINDING_CODES = {
  LEGACY_WAF_RESOURCE: "warning",
  URI_WAF_OVERRIDE: "error",
  FIREWALL_RULE_BYPASS_WAF: "info",
  FIREWALL_RULES_OVER_LIMIT: "error",
  FIREWALL_EXPRESSION_TOO_LONG: "error",
  PAGE_RULE_DISABLE_SECURITY: "info",
  PAGE_RULE_WAF_SETTING: "warning",
  CRS_OVERRIDE_NOT_MIGRATED: "warning",
  MANAGED_OVERRIDE_UNMAPPED: "warning",
  VALIDATION_MODE_UNAVAILABLE: "info",
  RULESET_ID_UNKNOWN: "warning",
  PROVIDER_UPGRADE_BLOCKED: "error",
  STATE_CONFIG_DRIFT: "warning",
  CERT_UNIVERSAL_AUTO_SWITCH: "info",
  CERT_ADVANCED_LETS_ENCRYPT: "warning",
  CERT_TOTAL_TLS_LETS_ENCRYPT: "warning",
  CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT: "warning",
  CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY: "info",
  CERT_CUSTOM_REBUNDLED_SELF_SIGNED: "info",
  CERT_CUSTOM_USER_DEFINED_CHAIN: "warning",
  // Added by this tool (compatible extensions of the contract):
  /** A module source that is not a local path: its resources are not scanned. */
  REMOTE_MODULE_NOT_FOLLOWED: "info",
  /** An existing `http_request_firewall_managed` ruleset with an action the phase does not accept. */
  RULESET_INVALID_ACTION: "warning",
  /** The zone already has an `http_request_firewall_managed` ruleset in Terraform. */
  MANAGED_RULESET_EXISTS: "info",
  /** A legacy WAF data source (`data.cloudflare_waf_*`), removed in provider 4.0 like the resources. */
  LEGACY_WAF_DATA_SOURCE: "warning",
  /** A value the migration needs is not known offline (severity per case: info for instance keys, warning for settings and possible bypasses; see core/unresolved.ts). */
  VALUE_UNRESOLVED: "info",
  /** A certificate's CA (or an uploaded certificate's issuer) comes from an expression or is not known. */
  CERT_CA_UNKNOWN: "warning",
  /** The zone's previous WAF is switched off (zone setting `waf = "off"`), or the switch is not known offline. */
  ZONE_WAF_SETTING: "warning",
  /** A bypass firewall rule also bypasses products other than the WAF: it stays for them. */
  FIREWALL_RULE_BYPASS_OTHER_PRODUCTS: "info",
  /** Two `http_request_firewall_managed` entry point rulesets for one zone: only one can exist. */
  DUPLICATE_ENTRY_POINT: "error",
  /** A skip-rule Page Rule whose target cannot be expressed (non-ASCII host, whitespace, invalid port, …). */
  PAGE_RULE_TARGET_UNTRANSLATABLE: "error",
  /** A kept expression refers to a legacy block (or to an output/local removed with it): it would dangle after step 6. */
  LEGACY_REFERENCE: "error",
  /** The provider version a root pins or locks lacks a cloudflare_ruleset construct the migration needs. */
  PROVIDER_FEATURE_MISSING: "error",
  /** Legacy resources, and no Cloudflare entry in required_providers (or one without a version): the next init takes the newest provider. */
  PROVIDER_CONSTRAINT_MISSING: "warning",
  /** An optional construct (logging on a skip rule, a rule's ref) is left out for the root's provider version. */
  RULESET_CONSTRUCT_OMITTED: "info",
  /** required_version admits Terraform below 1.5 (or says nothing): no import {} blocks, terraform import instead. */
  IMPORT_BLOCKS_UNAVAILABLE: "info",
  /** A zone's settings live in several roots (or workspaces): one entry point ruleset, in one of them, takes every root's skip rules. */
  ZONE_SPLIT_ACROSS_ROOTS: "warning",
  /** `--online`: the service and the offline rules disagree (compatibility, the ruleset, the migration state). */
  SERVICE_DISAGREES: "warning",
  /** `--online`: a call for the zone failed (after retries); the zone's entry is offline only. */
  SERVICE_CALL_FAILED: "warning",
  /** `--online`: the service says the zone is already migrated; it gets no migration request. */
  ZONE_ALREADY_MIGRATED: "info",
  /** `--online`: the service says the zone is in validation (both WAFs on); finish with pending. */
  ZONE_IN_VALIDATION: "info",
  /** An existing `http_request_firewall_managed` ruleset has a skip rule after the execute rules it would skip: it has no effect. */
  RULESET_SKIP_AFTER_EXECUTE: "warning",
  /** A root not in this run bypasses the WAF (Page Rule, firewall rule) for a zone this run migrates: the ruleset planned here lacks its skip rule. */
  BYPASS_IN_OTHER_ROOT: "error",
  /** A root not in this run configures the legacy WAF of a zone whose ruleset this run plans: the ruleset belongs there. */
  LEGACY_WAF_IN_OTHER_ROOT: "error",
} as const satisfies Record<string, Severity>;

export type FindingCode = keyof typeof FINDING_CODES;

const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

export function severityRank(s: Severity): number {
  return RANK[s];
}

/** The severity compareFindings lists last: in any sorted list of findings, its findings are a suffix. */
export const LAST_SEVERITY: Severity = (Object.keys(RANK) as Severity[]).reduce((a, b) => (RANK[a] <= RANK[b] ? a : b));

/** True when a finding of severity `s` trips `--fail-on failOn`. */
export function tripsFailOn(s: Severity, failOn: FailOn): boolean {
  return failOn !== "never" && RANK[s] >= RANK[failOn];
}

/**
 * A finding of `code`. Its severity is the code's (the table above) unless `severity` says otherwise: a
 * code whose weight depends on what it is about (VALUE_UNRESOLVED: `info` for instance keys only state can
 * name, `warning` for a possible WAF bypass or a ruleset setting) passes it; the table gives the default.
 */
export function finding(
  code: FindingCode,
  message: string,
  at: { ref?: ResourceRef | null; zoneId?: string | null; file?: string | null; line?: number | null },
  details?: Record<string, unknown>,
  severity?: Severity,
): Finding {
  const ref = at.ref ?? null;
  const f: Finding = {
    code,
    severity: severity ?? FINDING_CODES[code],
    message,
    zoneId: at.zoneId !== undefined ? at.zoneId : (ref?.zoneId ?? null),
    address: ref?.address ?? null,
    file: at.file !== undefined ? at.file : (ref?.file ?? null),
    line: at.line !== undefined ? at.line : (ref?.line ?? null),
  };
  if (details) f.details = details;
  return f;
}

/** Deterministic order: by severity (errors first), zone, file, line, code, address. */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(compareFindings);
}

/** What of a finding its order reads (compareFindings): a finding, or its key kept apart from it. */
export type FindingOrderKey = Pick<Finding, "severity" | "zoneId" | "file" | "line" | "code" | "address" | "root" | "workspace">;

/** The fields compareFindings reads, alone: a spilled finding is merged by this without reading it whole. */
export function findingOrderKey(f: FindingOrderKey): FindingOrderKey {
  return { severity: f.severity, zoneId: f.zoneId, file: f.file, line: f.line, code: f.code, address: f.address, root: f.root, workspace: f.workspace };
}

/** The order sortFindings gives (a stable sort by it). */
export function compareFindings(a: FindingOrderKey, b: FindingOrderKey): number {
  return (
    RANK[b.severity] - RANK[a.severity] ||
    cmp(a.zoneId, b.zoneId) ||
    cmp(a.file, b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    cmp(a.code, b.code) ||
    cmp(a.address, b.address) ||
    cmp(a.root ?? null, b.root ?? null) ||
    cmp(a.workspace ?? null, b.workspace ?? null)
  );
}

function cmp(a: string | null, b: string | null): number {
  return compareText(a ?? "", b ?? "");
}

export function highestSeverity(findings: Finding[]): Severity | null {
  let best: Severity | null = null;
  for (const f of findings) if (!best || RANK[f.severity] > RANK[best]) best = f.severity;
  return best;
}
