// The decisions of `api migrate --from REPORT --ledger FILE`, as pure functions: which zones a report shows
// ready, and what the ledger (every request and answer of earlier runs) says about each zone. A migration
// is irreversible, so the rule is strict: a zone with an accepted request for a mode never gets that mode
// again, and a request without a clear answer is settled by reading the zone's status first, never by
// sending it again blindly.

import type { MigrationMode, Report, ZoneReport } from "./model.js";

export type LedgerEntry =
  | { type: "request"; zoneId: string; mode: MigrationMode; at: string; method: string; url: string; body: unknown }
  | {
      type: "answer";
      zoneId: string;
      mode: MigrationMode;
      at: string;
      ok: boolean;
      status: number | null;
      rulesetId: string | null;
      /** For a failure: true when the service certainly did not apply it (an error answer other than 5xx). */
      definitive?: boolean;
      error?: string;
    }
  | { type: "reconciled"; zoneId: string; mode: MigrationMode; at: string; applied: boolean; stage: string };

/** What the ledger says about one zone. */
export interface ZoneLedger {
  /** Modes the service accepted (or that a status read showed applied). */
  applied: Set<MigrationMode>;
  /** A request whose outcome is not known (no answer, a 5xx, a timeout): read the status before anything else. */
  uncertain: MigrationMode | null;
  /** The last definitive refusal, when the zone's last request was refused. */
  refused: string | null;
  rulesetId: string | null;
}

export function ledgerView(entries: readonly LedgerEntry[]): Map<string, ZoneLedger> {
  const out = new Map<string, ZoneLedger>();
  const get = (zoneId: string): ZoneLedger => {
    let z = out.get(zoneId);
    if (!z) out.set(zoneId, (z = { applied: new Set(), uncertain: null, refused: null, rulesetId: null }));
    return z;
  };
  for (const e of entries) {
    const z = get(e.zoneId);
    if (e.type === "request") {
      z.uncertain = e.mode;
      z.refused = null;
    } else if (e.type === "answer") {
      if (e.ok) {
        z.applied.add(e.mode);
        z.uncertain = null;
        if (e.rulesetId) z.rulesetId = e.rulesetId;
      } else if (e.definitive) {
        z.uncertain = null;
        z.refused = e.error ?? `HTTP ${e.status ?? "?"}`;
      }
      // A failure that is not definitive leaves the request uncertain.
    } else {
      z.uncertain = null;
      if (e.applied) z.applied.add(e.mode);
    }
  }
  return out;
}

/** True when the mode's change is in place: pending finishes everything, so it covers validation too. */
export function alreadyApplied(z: ZoneLedger | undefined, mode: MigrationMode): boolean {
  if (!z) return false;
  return z.applied.has("pending") || z.applied.has(mode);
}

/** Why a report's zone is not ready for a wave, or null when it is. */
export function notReadyReason(report: Report, zone: ZoneReport): string | null {
  if (!/^[0-9a-f]{32}$/i.test(zone.zoneId)) return "the zone id is not known (an expression): no request can name it";
  const s = zone.service;
  if (!s) return "the report has no service answers for this zone: make it with scan --online or plan --online";
  if (s.error) return `the service could not be asked when the report was made (${s.error})`;
  if (s.compatible !== true) return "the service says the zone is not compatible (URI-based WAF overrides): delete them, then scan --online again";
  if (s.status === "finished") return "already migrated";
  if (s.status === "validation") return "in validation: finish it with --finish";
  if (s.status !== "start") return "the migration state is unknown";
  if (zone.unresolved?.length) return "settings of the zone are not known offline (zones[].unresolved)";
  const blocking = report.findings.filter((f) => f.zoneId === zone.zoneId && f.severity === "error");
  if (blocking.length) return `error findings: ${[...new Set(blocking.map((f) => f.code))].join(", ")}`;
  return null;
}

/** The report's zones, once per zone id (an estate report may list a zone once per root), in report order. */
export function uniqueZones(report: Report): ZoneReport[] {
  const seen = new Set<string>();
  const out: ZoneReport[] = [];
  for (const z of report.zones) {
    const id = z.zoneId.toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(z);
  }
  return out;
}
