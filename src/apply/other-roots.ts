// apply migrates one root: a Page Rule or firewall rule of another root of the repository that bypasses the
// WAF for one of its zones must become a skip rule of the ruleset it imports (core/other-root-bypasses.ts).
// Read-only: the repository's other roots at the structure level, then those configuring such rules.
import path from "node:path";
import type { AnalysisResult } from "../core/analyze.js";
import { applyRefusals, matchOtherRootBypasses } from "../core/other-root-bypasses.js";
import { legacyWafApplyRefusals, matchOtherRootLegacyWaf } from "../core/other-root-legacy-waf.js";
import { OTHER_ROOT_ENTRY_POINT_REFUSAL, OTHER_ROOT_ENTRY_POINT_REMEDY, otherRootEntryPointFindings, otherRootEntryPointLine } from "../core/other-root-entry-points.js";
import { otherRootRules } from "../estate/other-root-rules.js";
import type { RepositoryTree } from "../estate/repository-tree.js";

export interface OtherRootAccept {
  /** --accept-missing-skip-rules: other roots' bypasses (and unreadable roots) do not stop it. */
  missingSkipRules?: boolean;
  /** --accept-other-root-legacy-waf: other roots' legacy WAF of zones not known offline does not stop it. */
  unknownLegacyWaf?: boolean;
}

/**
 * One line per rule (or unreadable root) that stops apply in `chdir`, and per other root configuring the
 * legacy WAF of one of its zones (always: its ruleset belongs there; not known offline: unless accepted);
 * empty when nothing does.
 */
export async function otherRootRefusals(chdir: string, cwd: string, analysis: AnalysisResult, accept: OtherRootAccept = {}, repositoryTree?: RepositoryTree): Promise<string[]> {
  const zoneIds = analysis.zones.map((z) => z.zone.zoneId);
  if (zoneIds.length === 0) return [];
  const found = await otherRootRules({ roots: [chdir], cwd, base: cwd, ...(repositoryTree ? { repositoryTree } : {}) });
  if (found.roots.length === 0) return [];
  const repository = path.relative(cwd, found.top).split(path.sep).join("/") || ".";
  const entryPoints = otherRootEntryPointFindings(zoneIds, found.roots).map((f) => `${otherRootEntryPointLine(f)}: ${OTHER_ROOT_ENTRY_POINT_REFUSAL}; ${OTHER_ROOT_ENTRY_POINT_REMEDY}`);
  const legacy = [...entryPoints, ...legacyWafApplyRefusals(matchOtherRootLegacyWaf(zoneIds, found.roots), repository, accept.unknownLegacyWaf === true)];
  if (accept.missingSkipRules === true) return legacy;
  const scan = matchOtherRootBypasses(zoneIds, found.roots);
  const byZone = new Map(analysis.zones.map((z) => [z.zone.zoneId, z.inventory]));
  return [...legacy, ...applyRefusals(scan, (zoneId) => ({ rulesets: byZone.get(zoneId)?.rulesets ?? [], zone: byZone.get(zoneId)?.zone ?? null }), repository)];
}
