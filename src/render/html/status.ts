// Where each zone of the report stands, for the estate overview: ready, blocked (and by what), already
// migrated, or unknown (a setting the migration needs is not known offline). The status comes from the
// shared rule (estate/zone-status.ts) the text and Markdown summary use; this file only words it. Pure.
import type { Finding, Report, ZoneReport } from "../../core/model.js";
import { ruleDoc } from "../rule-docs.js";
import { instanceLabel } from "../instances.js";
import { blocksInstanceZones, zoneEntries, zoneStatus, type ZoneEntryStatus, type ZoneVerdict } from "../../estate/zone-status.js";

export { instanceLabel } from "../instances.js";

export type ZoneStatus = "ready" | "blocked" | "migrated" | "unknown";

export const STATUSES: readonly ZoneStatus[] = ["ready", "blocked", "migrated", "unknown"];

/** Icon and label for each status: colour is never the only carrier (WCAG 1.4.1). */
export const STATUS_LABEL: Record<ZoneStatus, { icon: string; text: string }> = {
  ready: { icon: "✔", text: "Ready" },
  blocked: { icon: "✖", text: "Blocked" },
  migrated: { icon: "↻", text: "Migrated" },
  unknown: { icon: "?", text: "Unknown" },
};

/** The estate fields of issue #13 (`root`, `workspace`), read where present so older reports still render. */
export interface EstatePlace {
  root?: string;
  workspace?: string;
  /** A zone split across roots: this entry's ruleset is generated in that other root. */
  rulesetIn?: { root: string; workspace: string };
}

export interface ZoneView {
  /** Stable anchor of the zone's section (`zone-3`). */
  anchor: string;
  zone: ZoneReport & EstatePlace;
  findings: Finding[];
  /** The display group (filter, counts, colour). */
  status: ZoneStatus;
  /** The shared status the group comes from (estate/zone-status.ts): the text and Markdown summary say the same. */
  detail: ZoneEntryStatus;
  /** Why the zone is blocked or unknown, or what remains to do: short phrases. */
  reasons: string[];
}

/**
 * The overview keeps four groups; the shared status maps onto them. Not known offline → unknown. A zone
 * waiting for its ruleset id, or whose ruleset is generated in another root, has a complete plan: it is
 * ready, and its badge and first reason say what is left (see DETAIL_LABEL).
 */
const GROUP: Record<ZoneEntryStatus, ZoneStatus> = {
  blocked: "blocked",
  "needs-values": "unknown",
  "needs-ruleset-id": "ready",
  "ruleset-elsewhere": "ready",
  ready: "ready",
};

/** Badge words for a shared status that shares its group with plain "ready". */
export const DETAIL_LABEL: Partial<Record<ZoneEntryStatus, string>> = {
  "needs-ruleset-id": "Ready once its ruleset id is known",
  "ruleset-elsewhere": "Ready, ruleset in another root",
};

/** Findings belong to a zone entry by zone id, and by root and workspace when the report carries them. */
export function zoneViews(report: Report): ZoneView[] {
  return zoneEntries(report).map(({ zone, findings, instanceErrors }, i) => {
    const z = zone as ZoneReport & EstatePlace;
    // Errors about the zone's instance as a whole (a provider that cannot import the ruleset, a kept
    // reference) block each of its zones, as the text and Markdown summary say (estate/summary.ts).
    const { status, detail, reasons } = statusOf(z, findings, instanceErrors);
    // Said last, and even when something else stops the zone first: where its ruleset lives does not change.
    if (z.rulesetIn) reasons.push(`its one ruleset, with this root's skip rules, is generated in ${instanceLabel(z.rulesetIn)}`);
    return { anchor: `zone-${i + 1}`, zone: z, findings, status, detail, reasons };
  });
}

export function statusOf(zone: ZoneReport & EstatePlace, findings: Finding[], instanceErrors: Finding[] = []): { status: ZoneStatus; detail: ZoneEntryStatus; reasons: string[] } {
  const verdict = zoneStatus(zone, findings, instanceErrors);
  return { status: GROUP[verdict.status], detail: verdict.status, reasons: reasonsOf(zone, findings, instanceErrors, verdict) };
}

/** The shared machine reasons in sentences: the reviewer deciding from the overview may not know the codes. */
function reasonsOf(zone: ZoneReport & EstatePlace, findings: Finding[], instanceErrors: Finding[], v: ZoneVerdict): string[] {
  switch (v.status) {
    case "blocked": {
      const counted = codeCounts([...findings.filter((f) => f.severity === "error"), ...instanceErrors.filter(blocksInstanceZones)]).map((c) => `${c}: ${ruleDoc(c.split(" ")[0]!).short}`);
      // The rule adds URI_WAF_OVERRIDE for a zone that is not compatible without saying so in a finding.
      if (!counted.some((c) => c.startsWith("URI_WAF_OVERRIDE")) && v.reasons.includes("URI_WAF_OVERRIDE")) counted.push(`not compatible: ${ruleDoc("URI_WAF_OVERRIDE").short}`);
      return counted;
    }
    case "needs-values": {
      const n = zone.unresolved?.length ?? 0;
      return [n ? `${n} setting${n === 1 ? "" : "s"} not known offline (VALUE_UNRESOLVED)` : "the zone id is not known offline (VALUE_UNRESOLVED)"];
    }
    case "needs-ruleset-id":
      // The first reason is RULESET_ID_UNKNOWN in words: the warning is not counted again after it.
      return [`its import id needs the zone's entry point ruleset id (RULESET_ID_UNKNOWN): run cf-waf-migrate api entrypoint --zone ${zone.zoneId}`, ...warningCodes(findings.filter((f) => f.code !== "RULESET_ID_UNKNOWN"))];
    case "ruleset-elsewhere": // zoneViews says where the ruleset is generated, whatever the status.
      return warningCodes(findings);
    case "ready":
      return [...v.reasons.map((a) => `merge its skip rules into the existing ${a} (MANAGED_RULESET_EXISTS)`), ...warningCodes(findings)];
  }
}

/** Every zone to migrate has LEGACY_WAF_RESOURCE findings: they say what the migration removes, not what to review. */
function warningCodes(findings: Finding[]): string[] {
  return codeCounts(findings.filter((f) => f.severity === "warning" && f.code !== "LEGACY_WAF_RESOURCE"));
}

/** `CODE` or `CODE ×n`, in order of first appearance. */
function codeCounts(findings: Finding[]): string[] {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  return [...counts].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c));
}

/** A zone an instance already manages with its entry point ruleset, with no previous WAF of it left there. */
export interface MigratedEntry {
  zoneId: string;
  root: string;
  workspace: string;
}

/**
 * The estate report's `roots[].migratedZones` (issue #13): such zones have no zone entry (nothing to
 * migrate), yet the overview counts and lists them. Absent in single-root reports.
 */
export function migratedEntries(report: Report): MigratedEntry[] {
  const roots = (report as Report & { roots?: { path: string; workspace: string; migratedZones?: string[] }[] }).roots ?? [];
  return roots.flatMap((r) => (r.migratedZones ?? []).map((zoneId) => ({ zoneId, root: r.path, workspace: r.workspace })));
}
