// A `cloudflare_ruleset` whose phase or zone is not known offline (`phase = each.value.phase` over a variable
// only a tfvars file fills, `zone_id = var.zone_id` with no value) may already be the
// http_request_firewall_managed entry point of a zone this run migrates. The generated ruleset would then be
// a second resource for that one entry point, each apply overwriting the other. Never taken as absent: it is
// VALUE_UNRESOLVED (warning), at its zone when its zone is known, else once for the run. Pure.
import { finding } from "./findings.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { ExistingRuleset, Finding, UnresolvedSetting } from "./model.js";
import { supplyAdvice, ZONE_ATTRIBUTES } from "./unresolved.js";

/** Its phase, when that is what is not known offline. */
export function unknownPhase(rs: ExistingRuleset): UnresolvedSetting | undefined {
  return rs.phase === null ? rs.unresolved?.find((u) => u.attribute === "phase") : undefined;
}

/** Its zone, when that is what is not known offline. */
function unknownZone(rs: ExistingRuleset): UnresolvedSetting | undefined {
  return rs.unresolved?.find((u) => ZONE_ATTRIBUTES.includes(u.attribute));
}

/** A zone's ruleset, not an account's (a kind not known offline may be either). */
function zoneLevel(rs: ExistingRuleset): boolean {
  return rs.kind === null || rs.kind === "zone";
}

/** A zone-level ruleset that is, or may be, in the managed phase. */
function mayBeManagedPhase(rs: ExistingRuleset): boolean {
  return zoneLevel(rs) && (rs.phase === MANAGED_PHASE || unknownPhase(rs) !== undefined);
}

/**
 * The zone's own rulesets whose phase is not known, as the zone's unresolved items (their phase alone: the
 * zone is known, it is the one they joined).
 */
export function phaseUnknownItems(rulesets: readonly ExistingRuleset[]): { ref: ExistingRuleset["ref"]; unresolved: UnresolvedSetting[] }[] {
  return rulesets.flatMap((rs) => {
    const phase = unknownPhase(rs);
    return phase && zoneLevel(rs) ? [{ ref: rs.ref, unresolved: [phase] }] : [];
  });
}

/**
 * One finding per ruleset whose zone is not known offline and that is, or may be, in the managed phase, when
 * the run migrates any zone (`zoneIds`, in report order): it may be the entry point of any of them.
 */
export function unknownZoneEntryPointFindings(rulesets: readonly ExistingRuleset[], zoneIds: readonly string[]): Finding[] {
  if (zoneIds.length === 0) return [];
  const out: Finding[] = [];
  for (const rs of rulesets) {
    const zone = unknownZone(rs);
    if (!zone || !mayBeManagedPhase(rs)) continue;
    const phase = unknownPhase(rs);
    const advice = supplyAdvice(zone.reason);
    const shown = zoneIds.length > 5 ? `${zoneIds.slice(0, 5).join(", ")} and ${zoneIds.length - 5} more` : zoneIds.join(", ");
    const what = `${rs.ref.address}: ${zone.attribute} = ${zone.expression} is not known offline (${zone.reason})${phase ? `, nor is its phase (phase = ${phase.expression})` : ""}`;
    out.push(
      finding(
        "VALUE_UNRESOLVED",
        `${what}, so whether it is the ${MANAGED_PHASE} entry point of a zone this run migrates (${shown}) is not known: if it is, merge the generated rules into it instead of adding a second resource for that entry point (MANAGED_RULESET_EXISTS)${advice === null ? "" : `: ${advice}`}`,
        { ref: rs.ref, zoneId: null },
        { attribute: zone.attribute, expression: zone.expression, reason: zone.reason, possibleEntryPoint: true },
        "warning",
      ),
    );
  }
  return out;
}
