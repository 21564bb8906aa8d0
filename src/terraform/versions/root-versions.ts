// The inputs of core's version fitting (core/version-fit.ts) for every root module of a workspace: its
// Cloudflare provider constraints with their lines, its lock, its required_version, whether it holds legacy
// resources, and where a finding about it points. Shared by `plan` (what it writes) and `apply` (what it
// refuses before the first change).
import path from "node:path";
import { LEGACY_WAF_RESOURCE_TYPES } from "../../core/legacy-types.js";
import { fitRoot, type RootVersionFit, type RootVersionInput } from "../../core/version-fit.js";
import { firstInFileOrder, type ProviderInfo, type RootProviders } from "./providers.js";
import type { Workspace } from "../inventory/workspace.js";

export function rootInput(ws: Pick<Workspace, "resources" | "tree">, info: ProviderInfo, r: RootProviders): RootVersionInput {
  const legacy = ws.resources.filter((x) => LEGACY_WAF_RESOURCE_TYPES.has(x.type));
  const dirs = new Set(r.moduleDirs);
  const inConfig = legacy.filter((x): x is typeof x & { file: string; line: number } => x.inConfig && x.file !== null && x.line !== null);
  const own = inConfig.filter((x) => dirs.has(path.dirname(x.file)));
  // A state-only legacy resource belongs to the only root there is; with several roots, to none we can name.
  const hasLegacy = own.length > 0 || (info.roots.length === 1 && legacy.length > 0);
  const node = ws.tree.roots.find((n) => n.dir.dir === r.dir);
  const tb = node?.dir.terraformBlocks[0];
  const firstLegacy = firstInFileOrder(own) ?? (info.roots.length === 1 ? firstInFileOrder(inConfig) : undefined);
  const anchor = tb ? { file: tb.file, line: tb.line } : firstLegacy ? { file: firstLegacy.file, line: firstLegacy.line } : null;
  return {
    root: r.root,
    provider: r.requirements.map((q) => ({ constraint: q.constraint, file: q.file, line: q.versionLine, module: q.module })),
    lock: r.lock ? { version: r.lock.version, file: r.lock.file, line: r.lock.line, source: r.lock.source } : null,
    terraform: (r.terraformRequirements ?? []).map((q) => ({ constraint: q.constraint, file: q.file, line: q.line, module: q.module })),
    openTofu: !!r.lock && /registry\.opentofu\.org/i.test(r.lock.source),
    anchor,
    hasLegacy,
  };
}

/**
 * "The first legacy resource": the one a reader meets first, in file order. The first of a stable sort by
 * the same order, found in one pass (sorting every legacy resource of a big estate cost more than all of
 * the rest of this file).
 */

/** Every root's versions and findings. */
export function rootVersionFits(ws: Pick<Workspace, "resources" | "tree">, info: ProviderInfo): RootVersionFit[] {
  return info.roots.map((r) => fitRoot(rootInput(ws, info, r)));
}
