// The estate summary for people: one line per zone entry (zone, root, workspace), saying whether it is
// ready, blocked and why, waiting for its ruleset id, planned in another root, or already migrated. Read
// from the report alone, so every renderer (and a merged report) says the same. Pure.
import { isLiteralZoneId } from "../core/import-id.js";
import type { Finding, Report, ZoneReport } from "../core/model.js";
import { instanceName } from "./order.js";

export type SummaryStatus = "blocked" | "needs-values" | "needs-ruleset-id" | "ruleset-elsewhere" | "ready" | "migrated";

export interface SummaryLine {
  status: SummaryStatus;
  zoneId: string;
  zoneName: string | null;
  root: string;
  workspace: string;
  /** Why: the blocking codes, the unresolved settings, the root holding the ruleset. */
  reasons: string[];
}

/** Worst first: what needs a person before anything else. */
const ORDER: SummaryStatus[] = ["blocked", "needs-values", "needs-ruleset-id", "ruleset-elsewhere", "ready", "migrated"];

export function estateSummary(report: Report): SummaryLine[] {
  const lines: SummaryLine[] = [];
  const errorsOf = new Map<string, Finding[]>();
  const key = (zoneId: string | null, root?: string, workspace?: string) => `${zoneId ?? ""}\u0000${root ?? "."}\u0000${workspace ?? "default"}`;
  for (const f of report.findings) {
    if (f.severity !== "error") continue;
    const k = key(f.zoneId, f.root, f.workspace);
    errorsOf.set(k, [...(errorsOf.get(k) ?? []), f]);
  }
  for (const z of report.zones) {
    // Errors about the zone, and errors about its instance as a whole (provider, references).
    const errors = [...(errorsOf.get(key(z.zoneId, z.root, z.workspace)) ?? []), ...(errorsOf.get(key(null, z.root, z.workspace)) ?? [])];
    lines.push(lineOf(z, errors));
  }
  for (const r of report.roots ?? []) {
    for (const zoneId of r.migratedZones ?? []) {
      lines.push({ status: "migrated", zoneId, zoneName: null, root: r.path, workspace: r.workspace, reasons: [] });
    }
  }
  return lines.sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
}

function lineOf(z: ZoneReport, errors: Finding[]): SummaryLine {
  const base = { zoneId: z.zoneId, zoneName: z.zoneName, root: z.root ?? ".", workspace: z.workspace ?? "default" };
  const codes = [...new Set(errors.map((f) => f.code))];
  if (!z.compatible && !codes.includes("URI_WAF_OVERRIDE")) codes.push("URI_WAF_OVERRIDE");
  if (codes.length) return { ...base, status: "blocked", reasons: codes };
  if (z.unresolved?.length || !isLiteralZoneId(z.zoneId)) {
    const what = [...new Set((z.unresolved ?? []).map((u) => `${u.address}.${u.attribute}`))];
    return { ...base, status: "needs-values", reasons: what.length ? what : ["the zone id is not known offline"] };
  }
  if (z.rulesetIn) return { ...base, status: "ruleset-elsewhere", reasons: [instanceName(z.rulesetIn)] };
  if (z.imports.some((i) => i.id.includes("<RULESET_ID>"))) return { ...base, status: "needs-ruleset-id", reasons: [`cf-waf-migrate api entrypoint --zone ${z.zoneId}`] };
  return { ...base, status: "ready", reasons: [] };
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
      return `${zone}: ready`;
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
