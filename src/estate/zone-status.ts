// Where one zone entry (zone, root, workspace) stands: the one rule that the text and Markdown summary
// (estate/summary.ts) and the HTML overview (render/html/status.ts) both map from, so a reviewer reading the
// pull-request comment and the HTML page sees the same answer. Pure.
import { isLiteralZoneId } from "../core/import-id.js";
import type { Finding, Report, ZoneReport } from "../core/model.js";
import { instanceName } from "./order.js";

/**
 * Worst first. A zone entry is never "migrated": it exists only because the zone still has something the
 * migration touches (a legacy WAF resource, a WAF-bypassing firewall rule, a WAF Page Rule). A zone with an
 * entry point ruleset and nothing left to migrate has no entry; it is listed in `roots[].migratedZones`.
 */
export type ZoneEntryStatus = "blocked" | "needs-values" | "needs-ruleset-id" | "ruleset-elsewhere" | "ready";

export interface ZoneVerdict {
  status: ZoneEntryStatus;
  /**
   * Machine reasons, by status: blocked → the error codes (URI_WAF_OVERRIDE for a zone not compatible);
   * needs-values → `address.attribute` of each unresolved setting, or none when only the zone id is unknown;
   * needs-ruleset-id → none; ruleset-elsewhere → the instance (`root` or `root (workspace w)`) holding the
   * ruleset; ready → the addresses of existing entry point rulesets to merge into (MANAGED_RULESET_EXISTS).
   */
  reasons: string[];
}

/** The zone's instance: where the split-zone join says its one ruleset is generated. */
export type ZoneEntry = ZoneReport & { rulesetIn?: { root: string; workspace: string } };

/**
 * Errors without a zone that migrating clears rather than prevents: PROVIDER_UPGRADE_BLOCKED says the legacy
 * resources must be migrated before the provider moves past 3.35, so it is the reason to migrate each zone of
 * the instance, never a reason one cannot be (a gate run with `--target-provider 4` said "blocked" of every zone).
 */
const CLEARED_BY_MIGRATING: ReadonlySet<string> = new Set(["PROVIDER_UPGRADE_BLOCKED"]);

/** An error of a zone's instance as a whole that stops the zone's migration (a provider that cannot load the ruleset, a kept reference). */
export function blocksInstanceZones(f: Finding): boolean {
  return f.severity === "error" && !CLEARED_BY_MIGRATING.has(f.code);
}

/** `findings`: the zone entry's own; `instanceErrors`: errors of its instance without a zone (provider, references). */
export function zoneStatus(zone: ZoneEntry, findings: readonly Finding[], instanceErrors: readonly Finding[] = []): ZoneVerdict {
  const codes = [...new Set([...findings.filter((f) => f.severity === "error"), ...instanceErrors.filter(blocksInstanceZones)].map((f) => f.code))];
  if (!zone.compatible && !codes.includes("URI_WAF_OVERRIDE")) codes.push("URI_WAF_OVERRIDE");
  if (codes.length) return { status: "blocked", reasons: codes };
  // Never assume a value offline: an unresolved setting or zone id stops the zone before its ruleset id does.
  if (zone.unresolved?.length || !isLiteralZoneId(zone.zoneId)) {
    return { status: "needs-values", reasons: [...new Set((zone.unresolved ?? []).map((u) => `${u.address}.${u.attribute}`))] };
  }
  if (zone.rulesetIn) return { status: "ruleset-elsewhere", reasons: [instanceName(zone.rulesetIn)] };
  if (zone.imports.some((i) => i.id.includes("<RULESET_ID>"))) return { status: "needs-ruleset-id", reasons: [] };
  const existing = findings.filter((f) => f.code === "MANAGED_RULESET_EXISTS").map((f) => f.address ?? "");
  return { status: "ready", reasons: [...new Set(existing)].filter((a) => a !== "") };
}

/** The key a zone entry and its findings share: the zone id within one (root, workspace) instance. */
export function zoneKey(zoneId: string, at: { root?: string; workspace?: string }): string {
  return `${zoneId}\u0000${at.root ?? ""}\u0000${at.workspace ?? ""}`;
}

export interface ZoneEntryFindings {
  zone: ZoneEntry;
  /** Every finding of the zone entry (not only errors: renderers list them). */
  findings: Finding[];
  /** Errors of the entry's instance that name no zone and block each of its zones (see blocksInstanceZones). */
  instanceErrors: Finding[];
}

/** Each zone entry of the report, in report order, with the findings the status rule reads. */
export function zoneEntries(report: Report): ZoneEntryFindings[] {
  const byKey = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const k = zoneKey(f.zoneId ?? "", f as Finding & { root?: string; workspace?: string });
    const list = byKey.get(k);
    if (list) list.push(f);
    else byKey.set(k, [f]);
  }
  return report.zones.map((zone) => {
    const z = zone as ZoneEntry;
    return {
      zone: z,
      findings: byKey.get(zoneKey(z.zoneId, z)) ?? [],
      instanceErrors: (byKey.get(zoneKey("", z)) ?? []).filter(blocksInstanceZones),
    };
  });
}
