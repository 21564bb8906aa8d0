// An estate-sized report for the HTML page's bench and browser test: the zones of a real report copied
// under distinct zone ids, names, roots and workspaces (issue #13's estate fields), with their findings.
// Deterministic: zone i gets id sha256("zone-i") cut to 32 hex digits.
import { createHash } from "node:crypto";

const hex32 = (s) => createHash("sha256").update(s).digest("hex").slice(0, 32);

/** `count` zone entries cycling over `report.zones`; roots `live/team-N`, every third in workspace `eu`. */
export function replicateZones(report, count, { roots = Math.max(1, Math.ceil(count / 4)) } = {}) {
  const zones = [];
  const findings = [];
  const usedRoots = new Map();
  for (let i = 0; i < count; i++) {
    const src = report.zones[i % report.zones.length];
    const zoneId = hex32(`zone-${i}`);
    const root = `live/team-${String(i % roots).padStart(3, "0")}`;
    const workspace = i % 3 === 2 ? "eu" : "default";
    const name = src.zoneName ? `z${i}.${src.zoneName}` : null;
    const swap = (text) => (typeof text === "string" ? text.split(src.zoneId).join(zoneId) : text);
    zones.push(JSON.parse(swap(JSON.stringify({ ...src, zoneId, zoneName: name, root, workspace }))));
    for (const f of report.findings.filter((x) => x.zoneId === src.zoneId)) {
      findings.push(JSON.parse(swap(JSON.stringify({ ...f, zoneId, root, workspace }))));
    }
    usedRoots.set(`${root}\u0000${workspace}`, { path: root, workspace, states: [`${root}/terraform.tfstate`] });
  }
  return { ...report, roots: [...usedRoots.values()], zones, findings: [...findings, ...report.findings.filter((f) => !report.zones.some((z) => z.zoneId === f.zoneId))] };
}
