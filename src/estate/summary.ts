// The estate summary for people: one line per zone entry (zone, root, workspace), saying whether it is
// ready, blocked and why, waiting for its ruleset id, planned in another root, or already migrated. Read
// from the report alone, so every renderer (and a merged report) says the same. Pure.
// The status itself is decided in zone-status.ts, which the HTML overview maps from too.
import type { Report, ZoneReport } from "../core/model.js";
import { instanceName } from "./order.js";
import { zoneEntries, zoneStatus, type ZoneEntryStatus, type ZoneVerdict } from "./zone-status.js";

export type SummaryStatus = ZoneEntryStatus | "migrated";

export interface SummaryLine {
  status: SummaryStatus;
  zoneId: string;
  zoneName: string | null;
  root: string;
  workspace: string;
  /** Why: the blocking codes, the unresolved settings, the root holding the ruleset, the ruleset to merge into. */
  reasons: string[];
}

/** Worst first: what needs a person before anything else. */
const ORDER: SummaryStatus[] = ["blocked", "needs-values", "needs-ruleset-id", "ruleset-elsewhere", "ready", "migrated"];

export function estateSummary(report: Report): SummaryLine[] {
  const lines: SummaryLine[] = zoneEntries(report).map(({ zone, findings, instanceErrors }) => lineOf(zone, zoneStatus(zone, findings, instanceErrors)));
  for (const r of report.roots ?? []) {
    for (const zoneId of r.migratedZones ?? []) {
      lines.push({ status: "migrated", zoneId, zoneName: null, root: r.path, workspace: r.workspace, reasons: [] });
    }
  }
  return lines.sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
}

function lineOf(z: ZoneReport, v: ZoneVerdict): SummaryLine {
  const base = { zoneId: z.zoneId, zoneName: z.zoneName, root: z.root ?? ".", workspace: z.workspace ?? "default", status: v.status };
  switch (v.status) {
    case "needs-values":
      return { ...base, reasons: v.reasons.length ? v.reasons : ["the zone id is not known offline"] };
    case "needs-ruleset-id":
      return { ...base, reasons: [`cf-waf-migrate api entrypoint --zone ${z.zoneId}`] };
    default:
      return { ...base, reasons: v.reasons };
  }
}

/** One sentence per line, the same in text and Markdown (Markdown adds code spans around names). */
export function summarySentence(l: SummaryLine, code: (s: string) => string = (s) => s): string {
  const zone = `${code(l.zoneId)}${l.zoneName ? ` (${l.zoneName})` : ""} in ${code(instanceName(l))}`;
  switch (l.status) {
    case "blocked":
      return `${zone}: blocked by ${l.reasons.map(code).join(", ")}`;
    case "needs-values":
      return `${zone}: needs values not known offline (${l.reasons.map(code).join(", ")})`;
    case "needs-ruleset-id":
      return `${zone}: ready once its ruleset id is known (${code(l.reasons[0]!)})`;
    case "ruleset-elsewhere":
      return `${zone}: its skip rules join the zone's ruleset in ${code(l.reasons[0]!)}`;
    case "ready":
      return l.reasons.length ? `${zone}: ready; merge its skip rules into the existing ${l.reasons.map(code).join(", ")} (MANAGED_RULESET_EXISTS)` : `${zone}: ready`;
    case "migrated":
      return `${zone}: already migrated (entry point ruleset, no legacy WAF)`;
  }
}

export const STATUS_LABEL: Record<SummaryStatus, string> = {
  blocked: "BLOCKED",
  "needs-values": "NEEDS VALUES",
  "needs-ruleset-id": "NEEDS ID",
  "ruleset-elsewhere": "SPLIT",
  ready: "READY",
  migrated: "MIGRATED",
};
