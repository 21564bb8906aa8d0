// A zone whose http_request_firewall_managed entry point a cloudflare_ruleset already manages (written by
// hand in this root, or in another root of the estate): PLAN.md's step 2 copies ruleset.tf and step 3
// imports it, which would give the one entry point a second resource (the two overwrite each other at every
// apply). Steps 2 and 3 say so, naming the existing resource(s). Pure: no I/O.
import { MANAGED_PHASE } from "../core/mappings.js";
import type { Finding, PlanStep } from "../core/model.js";
import { withLine } from "../core/report-paths.js";

/** Adds the notes of steps 2 and 3 for the zones' MANAGED_RULESET_EXISTS findings (own and the estate's). */
export function addExistingEntryPointNotes(steps: PlanStep[], findings: readonly Finding[], rulesetFile: string): void {
  const byZone = new Map<string, Finding[]>();
  for (const f of findings) {
    if (f.code !== "MANAGED_RULESET_EXISTS" || f.address === null) continue;
    const zone = f.zoneId ?? "the zone";
    byZone.set(zone, [...(byZone.get(zone) ?? []), f]);
  }
  const step2: string[] = [];
  const step3: string[] = [];
  for (const [zone, list] of byZone) {
    const names = list.map(where).join(" and ");
    const one = list.length === 1;
    const target = one ? list[0]!.address! : "the one you keep";
    const verb = one ? "manages" : "manage";
    const keep = one ? "" : " (DUPLICATE_ENTRY_POINT: keep one of them)";
    step2.push(
      `${zone}: ${names} already ${verb} its ${MANAGED_PHASE} entry point (MANAGED_RULESET_EXISTS)${keep}: do not add ${rulesetFile} as another resource for it (they would overwrite each other at every apply); merge the rules of ${rulesetFile} into ${target} instead, where it is declared`,
    );
    step3.push(
      `${zone}: ${names} already ${verb} its entry point: when the state holds ${one ? "it" : "the one you keep"}, there is nothing to import for the zone; otherwise import into ${target} there, not into the generated resource`,
    );
  }
  for (const step of steps) {
    if (step.number === 2) step.notes = [...(step.notes ?? []), ...step2];
    if (step.number === 3) step.notes = [...(step.notes ?? []), ...step3];
  }
}

function where(f: Finding): string {
  const other = f.details?.["otherRoot"];
  const at = f.file !== null ? ` (${withLine(f.file, f.line)})` : "";
  return typeof other === "string" ? `${f.address} of root ${other}${at}` : `${f.address}${at}`;
}
