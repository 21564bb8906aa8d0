// apply migrates one root: a Page Rule or firewall rule of another root of the repository that bypasses the
// WAF for one of its zones must become a skip rule of the ruleset it imports (core/other-root-bypasses.ts).
// Read-only: the repository's other roots at the structure level, then those configuring such rules.
import path from "node:path";
import type { AnalysisResult } from "../core/analyze.js";
import { applyRefusals, matchOtherRootBypasses } from "../core/other-root-bypasses.js";
import { otherRootRules } from "../estate/other-root-rules.js";

/** One line per rule (or unreadable root) that stops apply in `chdir`; empty when nothing does. */
export async function otherRootRefusals(chdir: string, cwd: string, analysis: AnalysisResult): Promise<string[]> {
  const zoneIds = analysis.zones.map((z) => z.zone.zoneId);
  if (zoneIds.length === 0) return [];
  const found = await otherRootRules({ roots: [chdir], cwd, base: cwd });
  if (found.roots.length === 0) return [];
  const repository = path.relative(cwd, found.top).split(path.sep).join("/") || ".";
  const scan = matchOtherRootBypasses(zoneIds, found.roots);
  const byZone = new Map(analysis.zones.map((z) => [z.zone.zoneId, z.inventory]));
  return applyRefusals(scan, (zoneId) => ({ rulesets: byZone.get(zoneId)?.rulesets ?? [], zone: byZone.get(zoneId)?.zone ?? null }), repository);
}
