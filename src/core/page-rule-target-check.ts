// A Page Rule target the translator cannot express (non-ASCII host, whitespace, an invalid port, …) is a
// property of the user's input: the rule gets a PAGE_RULE_TARGET_UNTRANSLATABLE finding and no skip rule,
// and the rest of the zone's analysis goes on. Pure: no I/O.
import { finding } from "./findings.js";
import type { Finding, PageRule } from "./model.js";
import { pageRuleTargetToExpression, UntranslatableTargetError, type PageRuleExpression } from "./page-rule-pattern.js";

export type PageRuleTranslation =
  | { ok: true; translated: PageRuleExpression }
  | { ok: false; error: UntranslatableTargetError };

/** Translates a known target; an untranslatable one is a value, any other exception stays a bug. */
export function translatePageRuleTarget(target: string, zoneName: string | null): PageRuleTranslation {
  try {
    return { ok: true, translated: pageRuleTargetToExpression(target, { zoneName }) };
  } catch (e) {
    if (e instanceof UntranslatableTargetError) return { ok: false, error: e };
    throw e;
  }
}

/** The finding for a skip-rule Page Rule whose target cannot be translated; null when it can (or is unknown). */
export function untranslatableTargetFinding(pr: PageRule, zoneId: string, zoneName: string | null): Finding | null {
  if (pr.target === null || pr.target === "") return null;
  const result = translatePageRuleTarget(pr.target, zoneName);
  if (result.ok) return null;
  return finding(
    "PAGE_RULE_TARGET_UNTRANSLATABLE",
    `${pr.ref.address}: its target ${JSON.stringify(pr.target)} cannot become a skip rule expression: ${result.error.message}; ${result.error.hint}. No skip rule is generated for it, so the zone is not ready to migrate until the target is fixed`,
    { ref: pr.ref, zoneId },
    { target: pr.target, problem: result.error.message, fix: result.error.hint },
  );
}
