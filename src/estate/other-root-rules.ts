// The Page Rules, firewall rules and legacy WAF resources of the roots around a run that the run does not
// include (see core/other-root-bypasses.ts and core/other-root-legacy-waf.ts for why they matter). Read-only and cheap: the repository's configuration is
// read at the structure level (as module-callers.ts does: resources by type, module calls), and only the
// roots whose tree configures `cloudflare_page_rule`, `cloudflare_firewall_rule`, a legacy WAF resource
// (`cloudflare_waf_package` / `_group` / `_rule` / `_override`) or a `cloudflare_ruleset` (the zone's entry
// point may already be managed there) are loaded further, from
// their configuration alone (their own variables files; no state, no analysis).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { LEGACY_WAF_RESOURCE_TYPES } from "../core/legacy-types.js";
import type { InputError, ResourceRef } from "../core/model.js";
import type { OtherRootRules } from "../core/other-root-bypasses.js";
import { mayHoldCloudflare, resourceHeadersOf } from "../terraform/hcl/prefilter.js";
import { rootNodeOf } from "./instances.js";
import { loadOtherRoots } from "./other-root-pool.js";
import { searchTop } from "./module-callers.js";
import { repositoryTreeReader, type RepositoryTree } from "./repository-tree.js";

const LEGACY_TYPES = new Set<string>(LEGACY_WAF_RESOURCE_TYPES);
const SEARCHED_TYPES = new Set(["cloudflare_page_rule", "cloudflare_firewall_rule", "cloudflare_ruleset", ...LEGACY_TYPES]);

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
  // The legacy WAF blocks each root declares, as the structure shows them (a block whose file then fails to
  // load is still among them), or as the text of a file the structure pass could not read shows them.
  const declared = new Map<string, ResourceRef[]>();
  for (const node of tree.nodes) {
    const rootDir = path.resolve(rootNodeOf(node).dir.dir);
    if (own.has(rootDir)) continue;
    const listed = node.dir.resources.filter((r) => r.mode === "managed").map((r) => ({ type: r.type, name: r.name, file: r.file, line: r.line }));
    const found = [...listed, ...(await headersOfUnreadable(top, node.dir.errors))].filter((r) => SEARCHED_TYPES.has(r.type));
    if (found.length === 0) continue;
    candidates.add(rootDir);
    for (const r of found) {
      if (!LEGACY_TYPES.has(r.type)) continue;
      const address = `${node.path ? `${node.path}.` : ""}${r.type}.${r.name}`;
      const file = slash(path.relative(input.base, path.resolve(top, r.file)));
      declared.set(rootDir, [...(declared.get(rootDir) ?? []), { address, configAddress: address, type: r.type, file, line: r.line, zoneId: null, inConfig: true, inState: false }]);
    }
  }
  const { roots } = await loadOtherRoots([...candidates].sort(), { cwd: input.cwd, base: input.base }, declared);
  return { top, roots };
}

/** The resource headers in the text of each file the structure pass could not read (paths relative to `top`). */
async function headersOfUnreadable(top: string, errors: readonly InputError[]): Promise<{ type: string; name: string; file: string; line: number }[]> {
  const out: { type: string; name: string; file: string; line: number }[] = [];
  for (const file of new Set(errors.map((e) => e.file))) {
    const text = await readFile(path.resolve(top, file), "utf8").catch(() => null);
    if (text === null || !mayHoldCloudflare(text)) continue;
    for (const h of resourceHeadersOf(text, file.endsWith(".json"))) out.push({ ...h, file });
  }
  return out;
}

/** `dir` is `top` or one of its ancestors. */
function isWithin(top: string, dir: string): boolean {
  const rel = path.relative(dir, top);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function slash(p: string): string {
  return p.split(path.sep).join("/");
}
