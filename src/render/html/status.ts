// Where each zone of the report stands, for the estate overview: ready, blocked (and by what), already
// migrated, or unknown (a setting the migration needs is not known offline). Pure.
import type { Finding, Report, ZoneReport } from "../../core/model.js";
import { ruleDoc } from "../rule-docs.js";
import { instanceLabel, zoneKey } from "../instances.js";

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
  status: ZoneStatus;
  /** Why the zone is blocked or unknown, or what remains to do: short phrases. */
  reasons: string[];
}

/** Findings belong to a zone entry by zone id, and by root and workspace when the report carries them. */
export function zoneViews(report: Report): ZoneView[] {
  const key = (zoneId: string | null, p: EstatePlace) => zoneKey(zoneId ?? "", p);
  const byKey = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const k = key(f.zoneId, f as Finding & EstatePlace);
    const list = byKey.get(k);
    if (list) list.push(f);
    else byKey.set(k, [f]);
  }
  return report.zones.map((zone, i) => {
    const z = zone as ZoneReport & EstatePlace;
    const findings = byKey.get(key(z.zoneId, z)) ?? [];
    // Errors about the zone's instance as a whole (a provider that cannot import the ruleset, a kept
    // reference) block each of its zones, as the text and Markdown summary say (estate/summary.ts).
    const instanceErrors = (byKey.get(key(null, z)) ?? []).filter((f) => f.severity === "error");
    const { status, reasons } = statusOf(z, findings, instanceErrors);
    if (z.rulesetIn) reasons.push(`its one ruleset, with this root's skip rules, is generated in ${instanceLabel(z.rulesetIn)}`);
    return { anchor: `zone-${i + 1}`, zone: z, findings, status, reasons };
  });
}

export function statusOf(zone: ZoneReport, findings: Finding[], instanceErrors: Finding[] = []): { status: ZoneStatus; reasons: string[] } {
  // A blocker says what it is in a sentence: the reviewer deciding from the overview may not know the codes.
  const errors = codeCounts([...findings.filter((f) => f.severity === "error"), ...instanceErrors]).map((c) => `${c}: ${ruleDoc(c.split(" ")[0]!).short}`);
  if (!zone.compatible && !errors.some((c) => c.startsWith("URI_WAF_OVERRIDE"))) errors.push(`not compatible: ${ruleDoc("URI_WAF_OVERRIDE").short}`);
  if (errors.length) return { status: "blocked", reasons: errors };
  const unresolved = zone.unresolved?.length ?? 0;
  if (unresolved) return { status: "unknown", reasons: [`${unresolved} setting${unresolved === 1 ? "" : "s"} not known offline (VALUE_UNRESOLVED)`] };
  if (findings.some((f) => f.code === "MANAGED_RULESET_EXISTS") && !hasLegacy(zone, findings)) {
    return { status: "migrated", reasons: ["managed ruleset in place, no previous-WAF resource left"] };
  }
  // Every zone to migrate has LEGACY_WAF_RESOURCE findings: they say what the migration removes, not what to review.
  return { status: "ready", reasons: codeCounts(findings.filter((f) => f.severity === "warning" && f.code !== "LEGACY_WAF_RESOURCE")) };
}

function hasLegacy(zone: ZoneReport, findings: Finding[]): boolean {
  const l = zone.legacy;
  if (l) return l.packages.length + l.groups.length + l.rules.length + l.overrides.length > 0;
  // A report written before `legacy` existed: its LEGACY_WAF_RESOURCE findings name the same resources.
  return zone.stateRemovals.length > 0 || findings.some((f) => f.code === "LEGACY_WAF_RESOURCE");
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
