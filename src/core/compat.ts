// The service's compatibility rules and limits (spec sections 1, 3 "Plan rules", 7 and 8).
import type {
  FirewallRule,
  LegacyWafOverride,
  LegacyWafPackage,
  MigrationMode,
  PageRule,
  Phase1Eligibility,
  ZonePlan,
  ZoneWafSetting,
} from "./model.js";
import { instancesUnresolved } from "./unresolved.js";

/** Spec section 8: at most 200 firewall rules to migrate per zone. */
export const MAX_FIREWALL_RULES_TO_MIGRATE = 200;
/** Spec section 8: one firewall rule expression is at most 4 KB. */
export const MAX_EXPRESSION_BYTES = 4096;

export function expressionBytes(expression: string): number {
  return Buffer.byteLength(expression, "utf8");
}

export function exceedsRuleLimit(count: number): boolean {
  return count > MAX_FIREWALL_RULES_TO_MIGRATE;
}

export function exceedsExpressionLimit(expression: string): boolean {
  return expressionBytes(expression) > MAX_EXPRESSION_BYTES;
}

/** "Bypass > WAF Managed Rules": `action = "bypass"` with `waf` among the products. */
export function isWafBypass(rule: FirewallRule): boolean {
  return rule.action === "bypass" && rule.products.includes("waf");
}

/** Page Rules the migration turns into skip rules: Disable Security, or WAF Off. */
export function pageRuleBecomesSkip(rule: PageRule): boolean {
  return rule.disableSecurity || rule.waf === "off";
}

/** Page Rules the migration touches at all: Disable Security, WAF Off or WAF On. */
export function pageRuleTouchesWaf(rule: PageRule): boolean {
  return rule.disableSecurity || rule.waf === "off" || rule.waf === "on";
}

/** Phase 2 (current): every zone is eligible except one with URI-based WAF overrides. */
export function phase2Compatible(overrides: LegacyWafOverride[]): boolean {
  return overrides.length === 0;
}

/**
 * Phase 1 eligibility, kept as information: (a) the previous WAF is off, or only the managed ruleset is on
 * and the core rule set is off; (b) no Bypass > WAF firewall rule and no Page Rule with Disable Security or
 * WAF On/Off; (c) no URI-based overrides.
 */
export function phase1Eligibility(input: {
  packages: LegacyWafPackage[];
  firewallRules: FirewallRule[];
  pageRules: PageRule[];
  overrides: LegacyWafOverride[];
  /** The zone's previous-WAF switch: with it off, condition (a) holds whatever the packages say. */
  zoneWafSettings?: ZoneWafSetting[];
}): Phase1Eligibility {
  const reasons: string[] = [];
  const previousWafOff = (input.zoneWafSettings ?? []).some((s) => s.value === "off");
  for (const p of previousWafOff ? [] : input.packages) {
    if (p.kind === "cloudflare") continue;
    if (p.unresolved?.some((u) => u.attribute === "sensitivity")) {
      reasons.push(`the core rule set sensitivity of ${p.ref.address} is not known offline`);
      continue;
    }
    if (instancesUnresolved(p)) {
      reasons.push(`whether ${p.ref.address} has any instance is not known offline (its ${instancesUnresolved(p)!.attribute})`);
      continue;
    }
    const sens = (p.sensitivity ?? "high").toLowerCase();
    if (sens !== "off") reasons.push(`core rule set is on (sensitivity ${sens}) in ${p.ref.address}`);
  }
  const bypass = input.firewallRules.filter((r) => isWafBypass(r) || (r.unresolved?.length ?? 0) > 0);
  if (bypass.length > 0) reasons.push(`${bypass.length} firewall rule(s) bypass the WAF`);
  const pages = input.pageRules.filter((r) => pageRuleTouchesWaf(r) || (r.unresolved?.length ?? 0) > 0);
  if (pages.length > 0) reasons.push(`${pages.length} Page Rule(s) set Disable Security or WAF On/Off`);
  if (input.overrides.length > 0) reasons.push(`${input.overrides.length} URI-based WAF override(s)`);
  return { eligible: reasons.length === 0, reasons };
}

/** Enterprise zones may validate both WAFs side by side; every other plan has only the pending path. */
export function migrationModeFor(plan: ZonePlan): MigrationMode {
  return plan === "enterprise" ? "validation" : "pending";
}

export function validationAvailable(plan: ZonePlan): boolean {
  return plan === "enterprise";
}
