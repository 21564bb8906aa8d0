// Reports of several roots and workspaces (an estate): a zone has one entry per instance, so findings are
// grouped by zone *and* instance, and headings name the instance when there is more than one.
import type { Finding, Report } from "../core/model.js";
import { instanceName } from "../estate/order.js";
import { zoneKey } from "../estate/zone-status.js";

export { zoneKey };

/** Findings by zone entry; the rest (no zone, or a zone the report has no entry for) in `other`. */
export function findingsByZone(report: Report): { byZone: Map<string, Finding[]>; other: Finding[] } {
  const keys = new Set(report.zones.map((z) => zoneKey(z.zoneId, z)));
  const byZone = new Map<string, Finding[]>();
  const other: Finding[] = [];
  for (const f of report.findings) {
    const key = f.zoneId !== null ? zoneKey(f.zoneId, f) : null;
    if (key !== null && keys.has(key)) {
      let list = byZone.get(key);
      if (!list) byZone.set(key, (list = []));
      list.push(f);
    } else other.push(f);
  }
  return { byZone, other };
}

/** Whether the report covers more than one instance (then every heading names its own). */
export function isEstate(report: Report): boolean {
  return (report.roots?.length ?? 0) > 1;
}

export { instanceName as instanceLabel } from "../estate/order.js";

/**
 * " in ROOT (workspace WS)" for a finding outside every zone of an estate report, else "": the same
 * module block gives one such finding per instance, and without the instance they read as duplicates.
 */
export function otherFindingInstance(report: Report, f: Finding): string {
  return isEstate(report) && f.root !== undefined ? ` in ${instanceName(f)}` : "";
}
