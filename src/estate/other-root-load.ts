// One root around a run, loaded for what the run's checks read of it (estate/other-root-rules.ts): its
// Page Rules, firewall rules, legacy WAF and entry point rulesets, from its configuration alone (its own
// variables files; no state, no analysis). On this thread or on another (./other-root-pool.ts).
import path from "node:path";
import { MANAGED_PHASE } from "../core/mappings.js";
import type { ResourceRef } from "../core/model.js";
import type { OtherRootRules } from "../core/other-root-bypasses.js";
import { withLine } from "../core/report-paths.js";
import { displayPath } from "../terraform/config/load.js";
import { loadRootConfiguration } from "../terraform/inventory/workspace.js";

/** Where a run's paths are shown from. */
export interface RunPaths {
  /** Root names are shown relative to this directory (the working directory). */
  cwd: string;
  /** Rule file paths are made relative to this directory (the report's base). */
  base: string;
}

/**
 * The root in `dir` (absolute). `declared`: the legacy WAF blocks the repository's structure shows in it,
 * kept (zone not known) when its load cannot read them.
 */
export async function rulesOfRoot(dir: string, where: RunPaths, declared: readonly ResourceRef[] = []): Promise<OtherRootRules> {
  // The root alone: the roots below it are loaded on their own (read whole, a root at the top of a repository
  // would claim every root below it, the run's own among them, as its own).
  const ws = await loadRootConfiguration(dir);
  const shown = (file: string | null) => (file === null ? null : displayPath(path.resolve(ws.base, file), where.base));
  const rebase = <T extends { ref: { file: string | null } }>(x: T): T => ({ ...x, ref: { ...x.ref, file: shown(x.ref.file) } });
  const d = ws.domain;
  const legacyWaf = [...d.packages, ...d.groups, ...d.rules, ...d.overrides].map((x) => rebase(x).ref);
  // A root that cannot be read in full: the legacy WAF blocks the structure shows that its load did not give
  // are kept with their zone not known (never taken for another zone, never dropped).
  if (ws.errors.length) {
    const read = new Set(legacyWaf.map((r) => r.configAddress));
    legacyWaf.push(...declared.filter((r) => !read.has(r.configAddress)));
  }
  const entryPoints = d.rulesets.filter((r) => r.phase === MANAGED_PHASE).map((r) => rebase(r).ref);
  // Messages name files from the working directory, as the user types them.
  const typed = (file: string) => displayPath(path.resolve(ws.base, file), where.cwd);
  const unreadable = ws.errors.map((e) => `${withLine(typed(e.file), e.line)}: ${e.message}`);
  return {
    root: displayPath(dir, where.cwd),
    firewallRules: d.firewallRules.map(rebase),
    pageRules: d.pageRules.map(rebase),
    ...(legacyWaf.length ? { legacyWaf } : {}),
    ...(entryPoints.length ? { entryPoints } : {}),
    ...(unreadable.length ? { unreadable } : {}),
  };
}
