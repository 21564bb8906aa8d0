// An existing `http_request_firewall_managed` ruleset whose skip rule comes after the execute rules it is meant
// to skip. The Ruleset Engine evaluates a phase's rules in order: an execute rule before the skip has already
// run the managed ruleset when the skip matches, so the exception does nothing for it. The generated ruleset
// puts every skip rule first; a ruleset written by hand (or merged into) may not. Pure.
import { finding } from "./findings.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { ExistingRuleset, Finding } from "./model.js";

export function skipAfterExecuteFindings(rs: ExistingRuleset): Finding[] {
  if (rs.phase !== MANAGED_PHASE) return [];
  const out: Finding[] = [];
  rs.rules.forEach((rule, i) => {
    if (rule.action !== "skip") return;
    const skips = rule.skips ?? null;
    // The earlier execute rules this skip would have to come before: all of them for `ruleset = "current"` or
    // when what it skips is not known offline; else those deploying a ruleset it names.
    const before = rs.rules
      .slice(0, i)
      .map((r, j) => ({ r, n: j + 1 }))
      .filter(({ r }) => r.action === "execute" && (skips === null || skips.current || r.executes == null || skips.rulesets.includes(r.executes)));
    if (before.length === 0) return;
    const label = (n: number, d: string | null) => `rule ${n}${d ? ` ("${d}")` : ""}`;
    out.push(
      finding(
        "RULESET_SKIP_AFTER_EXECUTE",
        `${rs.ref.address}: the skip ${label(i + 1, rule.description)} comes after the execute ${before.map(({ r, n }) => label(n, r.description)).join(", ")}: rules run in order, so ${before.length === 1 ? "that managed ruleset has" : "those managed rulesets have"} already run when the skip matches and the exception has no effect; move the skip rule before the execute rules (merging the generated skip rules into this ruleset: put them first)`,
        { ref: rs.ref },
        { skipRule: i + 1, executeRules: before.map(({ n }) => n), expression: rule.expression },
      ),
    );
  });
  return out;
}
