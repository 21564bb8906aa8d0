// The mapping tables of the spec (core rule set sensitivity and action) and the managed ruleset ids of the
// new WAF, in one place so the ruleset builder, the reports and the tests read the same numbers.
import type { ZonePlan } from "./model.js";

/** Managed rulesets of the new WAF (reference/domain-facts.md section 4). */
export const CLOUDFLARE_MANAGED_RULESET_ID = "efb7b8c949ac4650a09736fc376e9aee";
export const OWASP_CORE_RULESET_ID = "4814384a9e5d4991b9815dcfc25d2f1f";
/** The OWASP "Inbound Anomaly Score Exceeded" rule: the target of the score threshold and action override. */
export const OWASP_ANOMALY_SCORE_RULE_ID = "6179ae15870a4bb7b2d480d4843b323c";
export const MANAGED_PHASE = "http_request_firewall_managed";

export type ParanoiaLevel = 1 | 2 | 3 | 4;

export interface CoreRuleSetSettings {
  /** false when the legacy sensitivity was `off`: the execute rule is kept, disabled. */
  enabled: boolean;
  paranoiaLevel: ParanoiaLevel;
  scoreThreshold: number;
  action: string;
}

/**
 * The spec's sensitivity table, row by row. `default` is the provider's default (`high` in the schema,
 * but the spec lists "Default" as its own row with the same result as High).
 */
export const SENSITIVITY_TABLE: Record<string, { paranoiaLevel: ParanoiaLevel; scoreThreshold: number }> = {
  high: { paranoiaLevel: 2, scoreThreshold: 40 },
  medium: { paranoiaLevel: 1, scoreThreshold: 25 },
  low: { paranoiaLevel: 1, scoreThreshold: 40 },
  default: { paranoiaLevel: 2, scoreThreshold: 40 },
};

/** Legacy core rule set action → new OWASP action: Simulate becomes Log, the others map directly. */
export const ACTION_TABLE: Record<string, string> = {
  simulate: "log",
  block: "block",
  challenge: "challenge",
};

/** Provider 3.35 defaults of `cloudflare_waf_package` when an attribute is not set. */
export const LEGACY_PACKAGE_DEFAULTS = { sensitivity: "high", actionMode: "challenge" } as const;

export class UnmappedSettingError extends Error {}

export function mapCoreRuleSet(sensitivity: string | null, actionMode: string | null): CoreRuleSetSettings {
  const sens = (sensitivity ?? "default").toLowerCase();
  const act = (actionMode ?? LEGACY_PACKAGE_DEFAULTS.actionMode).toLowerCase();
  const action = ACTION_TABLE[act];
  if (!action) throw new UnmappedSettingError(`unknown core rule set action "${actionMode}"`);
  if (sens === "off") {
    // The new WAF has no package switch: keep the execute rule with the Default row's settings, disabled.
    return { enabled: false, ...SENSITIVITY_TABLE.default!, action };
  }
  const row = SENSITIVITY_TABLE[sens];
  if (!row) throw new UnmappedSettingError(`unknown core rule set sensitivity "${sensitivity}"`);
  return { enabled: true, ...row, action };
}

/** The categories to disable for paranoia level n: `paranoia-level-(n+1)` … `paranoia-level-4`. */
export function disabledParanoiaCategories(level: ParanoiaLevel): string[] {
  const out: string[] = [];
  for (let l = level + 1; l <= 4; l++) out.push(`paranoia-level-${l}`);
  return out;
}

/** Plans as Cloudflare names them in zone resources and the API, normalised to the report's values. */
export function normalizeZonePlan(value: unknown): ZonePlan {
  if (typeof value !== "string") return "unknown";
  const v = value.trim().toLowerCase();
  if (v.startsWith("enterprise") || v === "ent") return "enterprise";
  if (v.startsWith("business") || v === "biz") return "business";
  if (v.startsWith("pro")) return "pro";
  if (v.startsWith("free")) return "free";
  return "unknown";
}

/**
 * Legacy package/group/rule classification hints. The OWASP package id below is the one the provider's
 * documentation uses; real package ids differ per zone, so the modes and rule id ranges decide most cases.
 */
export const KNOWN_OWASP_PACKAGE_IDS = new Set(["a25a9a7e9c00afc1fb2e0245519d725b"]);
/** OWASP rule modes are on/off only; Cloudflare managed rules take these modes. */
export const CLOUDFLARE_RULE_MODES = new Set(["default", "disable", "simulate", "block", "challenge"]);
