// Builds a zone's `http_request_firewall_managed` entry point ruleset (API shape, spec part 2) from its
// legacy settings: skip rules first (firewall rules that bypass the WAF, Page Rules with Disable Security
// or WAF Off), then one execute rule for the Cloudflare Managed Ruleset and one for the OWASP Core Ruleset.
import { isWafBypass, pageRuleBecomesSkip } from "./compat.js";
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  disabledParanoiaCategories,
  mapCoreRuleSet,
  OWASP_ANOMALY_SCORE_RULE_ID,
  OWASP_CORE_RULESET_ID,
  type CoreRuleSetSettings,
} from "./mappings.js";
import type { FirewallRule, LegacyWafPackage, PageRule, Ruleset, RulesetRule, ZoneResource } from "./model.js";
import { translatePageRuleTarget } from "./page-rule-target-check.js";

/** The name the service gives the migrated entry point ruleset (`GET …/waf_migration/config`). */
export const MIGRATED_RULESET_NAME = "default";

export interface BuiltRuleset {
  ruleset: Ruleset;
  /** Notes a person must read (placeholders, approximations), one line each. */
  notes: string[];
  /** The core rule set settings used, and whether they came from a legacy package or the spec's default row. */
  coreRuleSet: CoreRuleSetSettings & { source: "package" | "default" };
}

export interface RulesetInput {
  packages: LegacyWafPackage[];
  firewallRules: FirewallRule[];
  pageRules: PageRule[];
  /** The zone's resource when known: its name places the `/` Cloudflare inserts after the zone name. */
  zone?: ZoneResource | null;
}

export function buildRuleset(input: RulesetInput): BuiltRuleset {
  const notes: string[] = [];
  const rules: RulesetRule[] = [];

  for (const fw of sortByPriority(input.firewallRules.filter(isWafBypass))) {
    let expression = fw.expression;
    if (expression === null || expression.trim() === "") {
      notes.push(`${fw.ref.address}: its filter expression is not known offline; replace the placeholder with it`);
      expression = "<FILTER_EXPRESSION>";
    }
    rules.push(skipRule(expression, `Bypass WAF, migrated from ${fw.ref.address}`, fw.paused !== true));
  }

  for (const pr of sortByPriority(input.pageRules.filter(pageRuleBecomesSkip))) {
    const setting = pr.disableSecurity ? "Disable Security" : "WAF Off";
    if (!pr.target) {
      notes.push(`${pr.ref.address}: its target URL is not known offline; replace the placeholder with it`);
      rules.push(skipRule("<PAGE_RULE_TARGET_EXPRESSION>", `${setting}, migrated from ${pr.ref.address}`, pr.status !== "disabled"));
      continue;
    }
    const result = translatePageRuleTarget(pr.target, input.zone?.name ?? null);
    if (!result.ok) {
      // PAGE_RULE_TARGET_UNTRANSLATABLE (an error finding) says what to fix; no guessed skip rule.
      notes.push(`${pr.ref.address}: "${pr.target}" cannot be translated (${result.error.message}): no skip rule is generated for it`);
      continue;
    }
    const translated = result.translated;
    if (!translated.exact) {
      notes.push(`${pr.ref.address}: "${pr.target}" is translated approximately: ${translated.notes.join("; ")}`);
    }
    rules.push(
      skipRule(translated.expression, `${setting} for ${pr.target}, migrated from ${pr.ref.address}`, pr.status !== "disabled"),
    );
  }

  rules.push({
    action: "execute",
    expression: "true",
    description: "Cloudflare Managed Ruleset",
    enabled: true,
    action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID },
  });

  const crs = coreRuleSetSettings(input.packages, notes);
  rules.push({
    action: "execute",
    expression: "true",
    description: "Cloudflare OWASP Core Ruleset",
    enabled: crs.enabled,
    action_parameters: {
      id: OWASP_CORE_RULESET_ID,
      overrides: {
        categories: disabledParanoiaCategories(crs.paranoiaLevel).map((category) => ({ category, enabled: false })),
        rules: [{ id: OWASP_ANOMALY_SCORE_RULE_ID, action: crs.action, score_threshold: crs.scoreThreshold }],
      },
    },
  });

  return { ruleset: { name: MIGRATED_RULESET_NAME, rules }, notes, coreRuleSet: crs };
}

function coreRuleSetSettings(packages: LegacyWafPackage[], notes: string[]): BuiltRuleset["coreRuleSet"] {
  const owasp = packages.filter((p) => p.kind !== "cloudflare");
  if (owasp.length === 0) {
    notes.push("no legacy core rule set package in Terraform: the OWASP rule uses the spec's Default row (PL2, score 40)");
    return { ...mapCoreRuleSet(null, null), source: "default" };
  }
  if (owasp.length > 1) {
    notes.push(`${owasp.length} core rule set packages for one zone: using ${owasp[0]!.ref.address}`);
  }
  const p = owasp[0]!;
  try {
    return { ...mapCoreRuleSet(p.sensitivity, p.actionMode), source: "package" };
  } catch (e) {
    notes.push(`${p.ref.address}: ${(e as Error).message}; the OWASP rule uses the spec's Default row`);
    return { ...mapCoreRuleSet(null, null), source: "default" };
  }
}

function skipRule(expression: string, description: string, enabled: boolean): RulesetRule {
  return {
    action: "skip",
    expression,
    description,
    enabled,
    action_parameters: { ruleset: "current" },
    logging: { enabled: true },
  };
}

/** Lower priority numbers first (as the legacy products evaluated them); unknown priorities last, stable. */
function sortByPriority<T extends { priority: number | null }>(items: T[]): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => (a.item.priority ?? Infinity) - (b.item.priority ?? Infinity) || a.i - b.i)
    .map((x) => x.item);
}
