// The Page Rules, firewall rules and legacy WAF resources of the roots around a run that the run does not
// include (see core/other-root-bypasses.ts and core/other-root-legacy-waf.ts for why they matter). Read-only and cheap: the repository's configuration is
// read at the structure level (as module-callers.ts does: resources by type, module calls), and only the
// roots whose tree configures `cloudflare_page_rule`, `cloudflare_firewall_rule`, a legacy WAF resource
// (`cloudflare_waf_package` / `_group` / `_rule` / `_override`) or a `cloudflare_ruleset` (the zone's entry
// point may already be managed there) are loaded further, from
// their configuration alone (their own variables files; no state, no analysis).
import { withLine } from "../core/report-paths.js";
import path from "node:path";
import { LEGACY_WAF_RESOURCE_TYPES } from "../core/legacy-types.js";
import { MANAGED_PHASE } from "../core/mappings.js";
import type { OtherRootRules } from "../core/other-root-bypasses.js";
import { loadWorkspace } from "../terraform/inventory/workspace.js";
import { rootNodeOf } from "./instances.js";
import { searchTop } from "./module-callers.js";
import { repositoryTreeReader, type RepositoryTree } from "./repository-tree.js";

const SEARCHED_TYPES = new Set(["cloudflare_page_rule", "cloudflare_firewall_rule", "cloudflare_ruleset", ...LEGACY_WAF_RESOURCE_TYPES]);

export interface OtherRootRulesResult {
  /** The directory searched (the repository), absolute. */
  top: string;
  roots: OtherRootRules[];
}

export interface OtherRootRulesInput {
  /** The run's root directories (absolute): their rules are the run's own. */
  roots: readonly string[];
  /** Root names are shown relative to this directory (the working directory). */
  cwd: string;
  /** Rule file paths are made relative to this directory (the report's base). */
  base: string;
  /** Directories the run itself read whole (its paths): when one holds the repository, there is nothing else. */
  read?: readonly string[];
  /** The repository's structure, shared with the run's other searches (read here when absent). */
  repositoryTree?: RepositoryTree;
}

export async function otherRootRules(input: OtherRootRulesInput): Promise<OtherRootRulesResult> {
  const own = new Set(input.roots.map((r) => path.resolve(r)));
  const top = searchTop(input.roots[0]!, input.roots.slice(1));
  if ((input.read ?? []).some((d) => isWithin(top, path.resolve(d)))) return { top, roots: [] };
  // What cannot be read at this level is found again below for the roots that matter, and reported there.
  const tree = await (input.repositoryTree ?? repositoryTreeReader())(top);
  const candidates = new Set<string>();
  for (const node of tree.nodes) {
    if (!node.dir.resources.some((r) => r.mode === "managed" && SEARCHED_TYPES.has(r.type))) continue;
    const rootDir = path.resolve(rootNodeOf(node).dir.dir);
    if (!own.has(rootDir)) candidates.add(rootDir);
  }
  const roots: OtherRootRules[] = [];
  for (const dir of [...candidates].sort()) {
    const ws = await loadWorkspace({ paths: [dir], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0) });
    const shown = (file: string | null) => (file === null ? null : slash(path.relative(input.base, path.resolve(ws.base, file))));
    const rebase = <T extends { ref: { file: string | null } }>(x: T): T => ({ ...x, ref: { ...x.ref, file: shown(x.ref.file) } });
    const d = ws.domain;
    const legacyWaf = [...d.packages, ...d.groups, ...d.rules, ...d.overrides].map((x) => rebase(x).ref);
    const entryPoints = d.rulesets.filter((r) => r.phase === MANAGED_PHASE).map((r) => rebase(r).ref);
    // Messages name files from the working directory, as the user types them.
    const typed = (file: string) => slash(path.relative(input.cwd, path.resolve(ws.base, file)));
    const unreadable = ws.errors.map((e) => `${withLine(typed(e.file), e.line)}: ${e.message}`);
    roots.push({
      root: slash(path.relative(input.cwd, dir)) || ".",
      firewallRules: ws.domain.firewallRules.map(rebase),
      pageRules: ws.domain.pageRules.map(rebase),
      ...(legacyWaf.length ? { legacyWaf } : {}),
      ...(entryPoints.length ? { entryPoints } : {}),
      ...(unreadable.length ? { unreadable } : {}),
    });
  }
  return { top, roots };
}

/** `dir` is `top` or one of its ancestors. */
function isWithin(top: string, dir: string): boolean {
  const rel = path.relative(dir, top);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function slash(p: string): string {
  return p.split(path.sep).join("/");
}
