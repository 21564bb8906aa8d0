// Step 2 with cf-terraforming: its `generate --resource-type cloudflare_ruleset` output holds every
// ruleset of the zone; the migration keeps only the `http_request_firewall_managed` one. This finds that
// resource and returns its block text exactly as generated, with its resource name for the import.
import type { ExistingRulesetRule, InputError } from "../../core/model.js";
import { readRulesetRules } from "../readers/ruleset-zone.js";
import { MANAGED_PHASE } from "../../core/mappings.js";
import { parseConfigFile } from "../hcl/parse.js";
import { expressionText, literalString } from "../config/values.js";
import type { RepeatedResource } from "../../core/extracted-instance.js";

export interface ExtractedRuleset {
  resourceName: string;
  /** The zone_id as written: a literal id, or null when it is an expression. */
  zoneId: string | null;
  zoneIdExpression: string | null;
  /** The block's text, byte for byte from the file, with a trailing newline. */
  text: string;
  /** The constructs it uses (`rules.logging.enabled`), for fitting it to the provider versions of steps 1-6. */
  constructs: string[];
  /** The block's line in the file, and its rules in order (for RULESET_SKIP_AFTER_EXECUTE). */
  line: number;
  rules: ExistingRulesetRule[];
  /** `count`, `for_each` and `zone_id` as hcl2json gives them: which instance the import goes to (core/extracted-instance.ts). */
  repetition: RepeatedResource;
}

/** Construct paths of a parsed resource body: blocks are arrays of objects (hcl2json), attributes values. */
function constructsOfBody(body: Record<string, unknown>, prefix = "", out = new Set<string>()): string[] {
  for (const [k, v] of Object.entries(body)) {
    const p = prefix ? `${prefix}.${k}` : k;
    out.add(p);
    if (Array.isArray(v)) for (const item of v) if (item !== null && typeof item === "object" && !Array.isArray(item)) constructsOfBody(item as Record<string, unknown>, p, out);
  }
  return [...out];
}

export type ExtractOutcome = { ok: true; rulesets: ExtractedRuleset[] } | { ok: false; error: InputError };

export async function extractManagedRulesets(file: string, text: string): Promise<ExtractOutcome> {
  const outcome = await parseConfigFile(file, text);
  if (!outcome.ok) return outcome;
  const { body, blocks } = outcome.parsed;
  const rulesets = ((body.resource ?? {}) as Record<string, Record<string, unknown[]>>).cloudflare_ruleset ?? {};
  const out: ExtractedRuleset[] = [];
  for (const [name, bodies] of Object.entries(rulesets)) {
    const b = (bodies?.[0] ?? {}) as Record<string, unknown>;
    if (literalString(b.phase) !== MANAGED_PHASE) continue;
    if (literalString(b.kind) === "managed") continue; // Cloudflare's own read-only rulesets
    const pos = blocks.find((x) => x.type === "resource" && x.labels[0] === "cloudflare_ruleset" && x.labels[1] === name);
    if (!pos?.structural) {
      return { ok: false, error: { file, line: null, column: null, message: `cannot locate resource cloudflare_ruleset.${name} (JSON syntax is not supported here)` } };
    }
    out.push({
      resourceName: name,
      zoneId: literalString(b.zone_id),
      zoneIdExpression: expressionText(b.zone_id),
      text: text.slice(pos.structural.start, pos.structural.end) + "\n",
      constructs: constructsOfBody(b),
      line: pos.line,
      rules: readRulesetRules(b.rules),
      repetition: { count: b.count, forEach: b.for_each, zoneId: b.zone_id },
    });
  }
  if (out.length === 0) {
    return { ok: false, error: { file, line: null, column: null, message: `no cloudflare_ruleset with phase = "${MANAGED_PHASE}" in this file` } };
  }
  return { ok: true, rulesets: out };
}
