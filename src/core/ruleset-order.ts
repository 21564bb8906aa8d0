// A `http_request_firewall_managed` ruleset whose skip rule comes after the execute rules it is meant to
// skip. The Ruleset Engine evaluates a phase's rules in order: an execute rule before the skip has already
// run the managed ruleset when the skip matches, so the exception does nothing for it. The generated ruleset
// puts every skip rule first; a ruleset written by hand (or merged into), or the service's (--config-json,
// --online) after someone edited the live one, may not. Pure.
import { finding } from "./findings.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { ExistingRuleset, ExistingRulesetRule, Finding, Ruleset } from "./model.js";

interface Misordered {
  /** 1-based rule numbers. */
  skip: number;
  executes: number[];
}

/** Each skip rule with the earlier execute rules it would have to come before. */
function misordered(rules: readonly ExistingRulesetRule[]): Misordered[] {
  const out: Misordered[] = [];
  rules.forEach((rule, i) => {
    if (rule.action !== "skip") return;
    const skips = rule.skips ?? null;
    // All earlier execute rules for `ruleset = "current"` or when what it skips is not known offline; else
    // those deploying a ruleset it names.
    const executes = rules
      .slice(0, i)
      .map((r, j) => ({ r, n: j + 1 }))
      .filter(({ r }) => r.action === "execute" && (skips === null || skips.current || r.executes == null || skips.rulesets.includes(r.executes)))
      .map(({ n }) => n);
    if (executes.length) out.push({ skip: i + 1, executes });
  });
  return out;
}

function message(where: string, rules: readonly ExistingRulesetRule[], m: Misordered, fix: string): string {
  const label = (n: number) => `rule ${n}${rules[n - 1]!.description ? ` ("${rules[n - 1]!.description}")` : ""}`;
  const many = m.executes.length > 1;
  return `${where}: the skip ${label(m.skip)} comes after the execute ${m.executes.map(label).join(", ")}: rules run in order, so ${many ? "those managed rulesets have" : "that managed ruleset has"} already run when the skip matches and the exception has no effect; ${fix}`;
}

/** An existing `cloudflare_ruleset` of the managed phase (config or state). */
export function skipAfterExecuteFindings(rs: ExistingRuleset): Finding[] {
  if (rs.phase !== MANAGED_PHASE) return [];
  return misordered(rs.rules).map((m) =>
    finding(
      "RULESET_SKIP_AFTER_EXECUTE",
      message(rs.ref.address, rs.rules, m, "move the skip rule before the execute rules (merging the generated skip rules into this ruleset: put them first)"),
      { ref: rs.ref },
      { skipRule: m.skip, executeRules: m.executes, expression: rs.rules[m.skip - 1]!.expression },
    ),
  );
}

/** The service's ruleset for a zone (`--config-json`, or `--online`'s configuration or live entry point), which ruleset.tf copies. */
export function serviceSkipAfterExecuteFindings(ruleset: Ruleset, at: { zoneId: string; file: string | null; line: number | null }): Finding[] {
  const rules: ExistingRulesetRule[] = ruleset.rules.map((r) => {
    const p = (r.action_parameters ?? {}) as { id?: unknown; ruleset?: unknown; rulesets?: unknown; rules?: unknown };
    const rule: ExistingRulesetRule = { action: r.action, expression: r.expression, description: r.description || null };
    if (r.action === "execute") rule.executes = typeof p.id === "string" ? p.id : null;
    if (r.action === "skip") {
      const named = [
        ...(Array.isArray(p.rulesets) ? p.rulesets.filter((x): x is string => typeof x === "string") : []),
        ...(p.rules && typeof p.rules === "object" && !Array.isArray(p.rules) ? Object.keys(p.rules) : []),
      ];
      rule.skips = p.ruleset === "current" ? { current: true, rulesets: [] } : named.length ? { current: false, rulesets: named } : null;
    }
    return rule;
  });
  return misordered(rules).map((m) =>
    finding(
      "RULESET_SKIP_AFTER_EXECUTE",
      message("the service's ruleset for this zone (which ruleset.tf copies)", rules, m, "fix the order in the live entry point ruleset (or in ruleset.tf before step 4, which then shows the change)"),
      at,
      { skipRule: m.skip, executeRules: m.executes, expression: rules[m.skip - 1]!.expression, source: "service" },
    ),
  );
}
