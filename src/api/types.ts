// Result shapes of the operations the tool calls. The rulesets reuse core's API-shaped `Ruleset`.

import type { MigrationMode, Ruleset, ZonePlan } from "../core/model.js";

export type { MigrationMode };

/** Result of GET /zones/{id}/waf_migration/check?phase_two=1 (spec 4.1). */
export interface CompatibilityResult {
  compatible: boolean;
  /** `start` is the only value the spec gives; null when the service omits it. */
  migration_state: string | null;
  [field: string]: unknown;
}

/**
 * Result of GET /zones/{id}/waf_migration/status (spec 4.4). The spec does not name the fields; the names
 * below are known only from unofficial use, so every other field is kept and shown as returned.
 */
export interface MigrationStatus {
  old_waf_status?: unknown;
  new_waf_status?: unknown;
  migration_state?: unknown;
  [field: string]: unknown;
}

/** The zone's http_request_firewall_managed entry point ruleset (Rulesets API). */
export interface EntrypointRuleset extends Ruleset {
  id: string;
  version?: string;
  phase?: string;
  kind?: string;
  [field: string]: unknown;
}

/** The parts of GET /zones/{id} the tool reads. */
export interface ZoneInfo {
  id: string;
  name?: string;
  plan?: { legacy_id?: string; name?: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** `default` lets the service choose (certificate_authority ""); the others name a CA. */
export type CertificateAuthorityChoice = "default" | "google" | "ssl_com";

export const CERTIFICATE_AUTHORITY_VALUES: Readonly<Record<CertificateAuthorityChoice, string>> = {
  default: "",
  google: "google",
  ssl_com: "ssl_com",
};

/** Body of the custom hostname edit (spec 4.5). */
export interface CustomHostnameCaBody {
  ssl: { method: "txt"; type: "dv"; certificate_authority: string };
}

/** Maps `result.plan.legacy_id` of GET /zones/{id} to the core plan names. */
export function zonePlanOf(zone: ZoneInfo): ZonePlan {
  const id = typeof zone.plan?.legacy_id === "string" ? zone.plan.legacy_id.toLowerCase() : "";
  switch (id) {
    case "enterprise":
    case "business":
    case "pro":
    case "free":
      return id;
    default:
      return "unknown";
  }
}
