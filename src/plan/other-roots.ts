// A plan of some roots of a repository (one root, or a few paths): the roots it does not include may bypass
// the WAF for a zone it migrates (core/other-root-bypasses.ts). Their rules are found once per plan, then
// each instance's zones are matched: findings at those rules, and step 2's note.
import path from "node:path";
import { matchOtherRootBypasses, otherRootBypassFindings, otherRootRulesetNote, type OtherRootRules } from "../core/other-root-bypasses.js";
import { matchOtherRootLegacyWaf, otherRootLegacyWafFindings, otherRootLegacyWafNote } from "../core/other-root-legacy-waf.js";
import { otherRootEntryPointFindings } from "../core/other-root-entry-points.js";
import type { Estate } from "../estate/load.js";
import { otherRootRules } from "../estate/other-root-rules.js";
import type { RepositoryTree } from "../estate/repository-tree.js";
import type { AssembledPlan } from "./artifacts.js";

export interface OtherRoots {
  roots: OtherRootRules[];
  /** The repository to plan together, as the user types it from the working directory. */
  repository: string;
}

/** The rules of the roots this plan leaves out, or none when it has no zone or no configuration. */
export async function otherRootsOfEstate(estate: Pick<Estate, "base" | "tree" | "allRootPaths">, cwd: string, read: readonly string[] | undefined, anyZone: boolean, repositoryTree?: RepositoryTree): Promise<OtherRoots> {
  if (!anyZone || estate.tree.roots.length === 0) return { roots: [], repository: "." };
  const roots = estate.allRootPaths.map((p) => path.resolve(estate.base, p));
  const found = await otherRootRules({ roots, cwd, base: estate.base, ...(read ? { read: read.map((d) => path.resolve(cwd, d)) } : {}), ...(repositoryTree ? { repositoryTree } : {}) });
  return { roots: found.roots, repository: path.relative(cwd, found.top).split(path.sep).join("/") || "." };
}

/**
 * Adds the findings about the other roots' rules and legacy WAF resources for the zones `plan` generates a
 * ruleset for, and step 2's notes (and step 3's, for a legacy WAF elsewhere: the import is what must not run).
 */
export function addOtherRootFindings(plan: Pick<AssembledPlan, "findings" | "steps" | "otherRootFindings">, zoneIds: readonly string[], others: OtherRoots): void {
  if (others.roots.length === 0) return;
  const scan = matchOtherRootBypasses(zoneIds, others.roots);
  const bypasses = otherRootBypassFindings(scan, others.repository);
  plan.findings.push(...bypasses);
  const note = otherRootRulesetNote(scan, others.repository);
  const step2 = plan.steps.find((s) => s.number === 2);
  if (note !== null && step2) step2.notes = [...(step2.notes ?? []), note];
  const entryPoints = otherRootEntryPointFindings(zoneIds, others.roots);
  plan.findings.push(...entryPoints);
  const legacy = matchOtherRootLegacyWaf(zoneIds, others.roots);
  const legacyWaf = otherRootLegacyWafFindings(legacy, others.repository);
  plan.findings.push(...legacyWaf);
  // migrate.sh refuses on exactly these (plan/artifacts.ts scriptInput).
  plan.otherRootFindings = { bypasses, legacyWaf, entryPoints };
  const legacyNote = otherRootLegacyWafNote(legacy, others.repository);
  for (const step of plan.steps.filter((s) => s.number === 2 || s.number === 3)) {
    if (legacyNote !== null) step.notes = [...(step.notes ?? []), legacyNote];
  }
}
