// A plan or apply of some roots only: another root of the repository may configure the legacy WAF
// (cloudflare_waf_package / _group / _rule / _override) of a zone whose ruleset this run plans. A zone has one
// http_request_firewall_managed entry point, and it belongs with the zone's legacy WAF: planned here, it is
// imported into this root's state while that root's own plan imports it too (two roots then manage one
// ruleset, each apply overwriting the other), and it is built without that root's package settings (the core
// rule set at the spec's Default row, settings the zone never had). Pure: estate/other-root-rules.ts reads
// the other roots; this decides which of their legacy resources concern this run's zones and says so.
import { withLine } from "./report-paths.js";
import { finding } from "./findings.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { Finding, ResourceRef } from "./model.js";
import { otherRootZoneMatch, runZones, type OtherRootRules } from "./other-root-bypasses.js";
import { compareText } from "./text-order.js";

/** One other root's legacy WAF resources of one zone of this run (`zone`), or of a zone not known offline (`maybe`). */
export interface OtherRootLegacyWaf {
  root: string;
  match: "zone" | "maybe";
  /** The zone, for `zone`; null for `maybe`. */
  zoneId: string | null;
  /** Its legacy resources concerned, first in file order. */
  refs: ResourceRef[];
}

const byPosition = (a: ResourceRef, b: ResourceRef) => compareText(a.file ?? "", b.file ?? "") || (a.line ?? 0) - (b.line ?? 0);

/**
 * The other roots' legacy WAF resources for one of `zoneIds` (the zones whose ruleset this run plans), one
 * entry per root and zone (`zone`: a literal zone id on both sides) and one per root for the rest that may
 * be one of them (`maybe`: a zone id there or here is an expression, never taken for the zone nor ignored).
 * Resources known to have no instance (count 0) configure nothing.
 */
export function matchOtherRootLegacyWaf(zoneIds: readonly string[], others: readonly OtherRootRules[]): OtherRootLegacyWaf[] {
  const run = runZones(zoneIds);
  const out: OtherRootLegacyWaf[] = [];
  if (zoneIds.length === 0) return out;
  for (const other of others) {
    const byZone = new Map<string, ResourceRef[]>();
    const maybe: ResourceRef[] = [];
    for (const ref of (other.legacyWaf ?? []).filter((r) => r.noInstances !== true)) {
      const match = otherRootZoneMatch(ref.zoneId, run);
      if (match === "zone") byZone.set(ref.zoneId!, [...(byZone.get(ref.zoneId!) ?? []), ref]);
      else if (match === "maybe") maybe.push(ref);
    }
    for (const [zoneId, refs] of [...byZone].sort(([a], [b]) => compareText(a, b))) out.push({ root: other.root, match: "zone", zoneId, refs: [...refs].sort(byPosition) });
    if (maybe.length) out.push({ root: other.root, match: "maybe", zoneId: null, refs: [...maybe].sort(byPosition) });
  }
  return out;
}

function addresses(refs: readonly ResourceRef[]): string {
  const shown = refs.slice(0, 3).map((r) => r.address);
  return refs.length > 3 ? `${shown.join(", ")} and ${refs.length - 3} more` : shown.join(", ");
}

/** How to plan the zone's ruleset with its legacy WAF. */
function remedy(repository: string): string {
  return `plan the roots together (\`cf-waf-migrate plan ${repository}\`: the estate plan gives the zone one ruleset, in the root with its legacy WAF, with every root's skip rules, ZONE_SPLIT_ACROSS_ROOTS; \`--ruleset-root ZONE_ID=ROOT\` picks another root) and run that plan`;
}

const WRONG =
  `the zone has one ${MANAGED_PHASE} entry point and its ruleset belongs with its legacy WAF: the ruleset planned here would be imported into this root's state while that root's own migration imports the same entry point (two roots managing one ruleset, each apply overwriting the other), and it is built without that root's package settings (its core rule set at the spec's Default row, not the zone's)`;

/** One LEGACY_WAF_IN_OTHER_ROOT error per other root and zone, one VALUE_UNRESOLVED per root whose zones are not known offline. */
export function otherRootLegacyWafFindings(matches: readonly OtherRootLegacyWaf[], repository: string): Finding[] {
  return matches.map((m) => {
    const first = m.refs[0]!;
    const at = { zoneId: m.zoneId, file: first.file, line: first.line };
    const details = { otherRoot: m.root, legacyWaf: true, addresses: m.refs.map((r) => r.address) };
    if (m.match === "zone") {
      return finding(
        "LEGACY_WAF_IN_OTHER_ROOT",
        `root ${m.root} (not in this run) configures the legacy WAF of zone ${m.zoneId} (${addresses(m.refs)}), whose ruleset this run plans: ${WRONG}; ${remedy(repository)}`,
        at,
        details,
      );
    }
    return finding(
      "VALUE_UNRESOLVED",
      `root ${m.root} (not in this run) configures legacy WAF resources (${addresses(m.refs)}) whose zone, or this run's, is not known offline (a zone id is an expression): if it is a zone whose ruleset this run plans, ${WRONG}; ${remedy(repository)}, where its variables and state can be given`,
      at,
      { ...details, possibleLegacyWaf: true },
      "warning",
    );
  });
}

/** migrate.sh's line for one finding otherRootLegacyWafFindings made (this module wrote its details). */
export function otherRootLegacyWafLine(f: Finding): string {
  const d = f.details as { otherRoot: string; addresses?: string[] };
  return `${f.file ?? d.otherRoot}${f.line !== null && f.line !== undefined ? `:${f.line}` : ""}: ${(d.addresses ?? []).join(", ")} in root ${d.otherRoot}${f.zoneId ? ` (zone ${f.zoneId})` : ""} (${f.code === "LEGACY_WAF_IN_OTHER_ROOT" ? f.code : "VALUE_UNRESOLVED: zone not known offline"})`;
}

/** Step 2's note (the ruleset) when other roots configure the legacy WAF of this run's zones, or null. */
export function otherRootLegacyWafNote(matches: readonly OtherRootLegacyWaf[], repository: string): string | null {
  if (matches.length === 0) return null;
  const roots = [...new Set(matches.map((m) => m.root))];
  const known = matches.some((m) => m.match === "zone");
  const codes = [...(known ? ["LEGACY_WAF_IN_OTHER_ROOT"] : []), ...(matches.some((m) => m.match === "maybe") ? ["VALUE_UNRESOLVED"] : [])];
  return `do not copy or import this ruleset: ${roots.join(", ")} (not in this run) ${known ? "configures" : "may configure"} the legacy WAF of a zone it is for (${codes.join(", ")}), and the zone's one entry point ruleset belongs with its legacy WAF; ${remedy(repository)}`;
}

/** For `apply`: one line per match, each stopping it (`maybe` ones only unless `acceptUnknown`). */
export function legacyWafApplyRefusals(matches: readonly OtherRootLegacyWaf[], repository: string, acceptUnknown: boolean): string[] {
  const out: string[] = [];
  for (const m of matches) {
    if (m.match === "maybe" && acceptUnknown) continue;
    const r = m.refs[0]!;
    const pos = withLine(r.file ?? "?", r.line);
    if (m.match === "zone") {
      out.push(`${pos}: root ${m.root} configures the legacy WAF of zone ${m.zoneId} (${addresses(m.refs)}), which this root would import the entry point ruleset of: its ruleset belongs with its legacy WAF (two roots would manage one ruleset). Plan the roots together (\`cf-waf-migrate plan ${repository} --out-dir DIR\`) and run the migrate.sh it writes for each root, in ESTATE.md's order`);
    } else {
      out.push(`${pos}: root ${m.root} configures legacy WAF resources (${addresses(m.refs)}) whose zone, or this root's, is not known offline: it may be a zone this root would import the entry point ruleset of, which belongs with its legacy WAF. Plan the roots together (\`cf-waf-migrate plan ${repository} --out-dir DIR\`), or pass --accept-other-root-legacy-waf once you know it is another zone`);
    }
  }
  return out;
}
