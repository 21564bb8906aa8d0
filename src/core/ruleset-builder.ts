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
import type { FirewallRule, LegacyWafPackage, PageRule, Ruleset, RulesetRule, UnresolvedSetting, ZoneResource } from "./model.js";
import { translatePageRuleTarget } from "./page-rule-target-check.js";
import { instancesUnresolved, mayBypassWaf, pageRuleMayTouchWaf } from "./unresolved.js";

/** The name the service gives the migrated entry point ruleset (`GET …/waf_migration/config`). */
export const MIGRATED_RULESET_NAME = "default";

export interface BuiltRuleset {
  ruleset: Ruleset;
  /** Notes a person must read (placeholders, approximations), one line each. */
  notes: string[];
  /**
   * The core rule set settings used, and whether they came from a legacy package or the spec's default row
   * (`unresolved`: the package's sensitivity or action mode is not known offline; see `ruleTodos`).
   */
  coreRuleSet: CoreRuleSetSettings & { source: "package" | "default" | "unresolved" };
  /**
   * `# TODO` lines the emitted HCL puts inside a rule (by its index in `ruleset.rules`): a value that is not
   * known offline, what it depends on, and how to supply it. The rule holds no assumed value there.
   */
  ruleTodos: Record<number, string[]>;
}

const SUPPLY = "supply it with --var-file/--var or --state and generate again";

/** `# TODO` text for one unresolved setting. */
function todoFor(address: string, u: UnresolvedSetting): string {
  const how = /--var/.test(u.reason) ? "then generate again" : SUPPLY;
  return `VALUE_UNRESOLVED ${address}: ${u.attribute} = ${u.expression} is not known offline (${u.reason}); ${how}`;
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
  const ruleTodos: Record<number, string[]> = {};
  const todo = (lines: string[]) => {
    if (lines.length) ruleTodos[rules.length - 1] = lines;
  };

  for (const fw of sortByPriority(input.firewallRules.filter((f) => isWafBypass(f) || mayBypassWaf(f)))) {
    let expression = fw.expression;
    if (expression === null || expression.trim() === "") {
      notes.push(`${fw.ref.address}: its filter expression is not known offline; replace the placeholder with it`);
      expression = "<FILTER_EXPRESSION>";
    }
    // A rule that may bypass the WAF (or whose paused flag is unknown) is generated disabled: turning a skip
    // rule on is a decision the unknown value has to make, not this tool.
    const unknown = fw.unresolved ?? [];
    const possible = !isWafBypass(fw);
    // A rule whose count/for_each is unknown may not exist: its skip rule waits, disabled, like a paused one.
    const enabled = !possible && fw.paused !== true && !unknown.some((u) => u.attribute === "paused") && !instancesUnresolved(fw);
    rules.push(skipRule(expression, `${possible ? "Possible bypass of the WAF (settings unknown offline)" : "Bypass WAF"}, migrated from ${fw.ref.address}`, enabled));
    todo([
      ...(possible ? [`${fw.ref.address} may bypass the WAF: this skip rule stays disabled until its action and products are known`] : []),
      ...unknown.map((u) => todoFor(fw.ref.address, u)),
    ]);
  }

  for (const pr of sortByPriority(input.pageRules.filter((p) => pageRuleBecomesSkip(p) || pageRuleMayTouchWaf(p)))) {
    const possible = !pageRuleBecomesSkip(pr);
    const setting = possible ? "Possible Disable Security or WAF Off (settings unknown offline)" : pr.disableSecurity ? "Disable Security" : "WAF Off";
    const unknown = pr.unresolved ?? [];
    const enabled = !possible && pr.status !== "disabled" && !unknown.some((u) => u.attribute === "status") && !instancesUnresolved(pr);
    const todos = [
      ...(possible ? [`${pr.ref.address} may disable security or the WAF: this skip rule stays disabled until its actions are known`] : []),
      ...unknown.map((u) => todoFor(pr.ref.address, u)),
    ];
    if (!pr.target) {
      notes.push(`${pr.ref.address}: its target URL is not known offline; replace the placeholder with it`);
      rules.push(skipRule("<PAGE_RULE_TARGET_EXPRESSION>", `${setting}, migrated from ${pr.ref.address}`, enabled));
      todo(todos);
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
    rules.push(skipRule(translated.expression, `${setting} for ${pr.target}, migrated from ${pr.ref.address}`, enabled));
    todo(todos);
  }

  rules.push({
    action: "execute",
    expression: "true",
    description: "Cloudflare Managed Ruleset",
    enabled: true,
    action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID },
  });

  const crs = coreRuleSetSettings(input.packages, notes);
  const owaspTodos = unresolvedCoreRuleSet(input.packages);
  rules.push(owaspRule(crs, owaspTodos));
  todo(owaspTodos.lines);

  return {
    ruleset: { name: MIGRATED_RULESET_NAME, rules },
    notes,
    coreRuleSet: owaspTodos.lines.length ? { ...crs, source: "unresolved" } : crs,
    ruleTodos,
  };
}

interface CoreRuleSetUnknowns {
  sensitivity: boolean;
  action: boolean;
  lines: string[];
}

/** Which core rule set settings of the zone's package are unknown offline, as TODO lines. */
function unresolvedCoreRuleSet(packages: LegacyWafPackage[]): CoreRuleSetUnknowns {
  const p = packages.find((x) => x.kind !== "cloudflare");
  const unknown = p?.unresolved ?? [];
  // A package whose count/for_each is unknown may not exist: neither of its settings can be taken as the zone's.
  const instances = p ? instancesUnresolved(p) : undefined;
  const sensitivity = instances !== undefined || unknown.some((u) => u.attribute === "sensitivity");
  const action = instances !== undefined || unknown.some((u) => u.attribute === "action_mode");
  const lines = unknown.filter((u) => u.attribute === "sensitivity" || u.attribute === "action_mode" || u === instances).map((u) => todoFor(p!.ref.address, u));
  if (sensitivity) lines.unshift("the core rule set sensitivity is not known: no paranoia level or score threshold is set, and the rule stays disabled (sensitivity off disables it) until it is known");
  if (action) lines.push("the core rule set action mode is not known: no action is set on the anomaly score rule until it is known");
  return { sensitivity, action, lines };
}

/** The OWASP execute rule: only known settings appear; an unknown sensitivity leaves the rule disabled. */
function owaspRule(crs: CoreRuleSetSettings, unknown: CoreRuleSetUnknowns): RulesetRule {
  const scoreRule: { id: string; action?: string; score_threshold?: number } = { id: OWASP_ANOMALY_SCORE_RULE_ID };
  if (!unknown.action) scoreRule.action = crs.action;
  if (!unknown.sensitivity) scoreRule.score_threshold = crs.scoreThreshold;
  const overrides: NonNullable<RulesetRule["action_parameters"]>["overrides"] = {};
  if (!unknown.sensitivity) overrides.categories = disabledParanoiaCategories(crs.paranoiaLevel).map((category) => ({ category, enabled: false }));
  if (scoreRule.action !== undefined || scoreRule.score_threshold !== undefined) overrides.rules = [scoreRule];
  return {
    action: "execute",
    expression: "true",
    description: "Cloudflare OWASP Core Ruleset",
    enabled: unknown.sensitivity ? false : crs.enabled,
    action_parameters: { id: OWASP_CORE_RULESET_ID, ...(Object.keys(overrides).length ? { overrides } : {}) },
  };
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
