// Before step 5 deletes legacy blocks: does anyone else still hold instances of them? A block deleted from
// the configuration disappears for every state that instantiates it: the root's other workspaces, and every
// other root that calls a module whose file the edit changes (a module shared by `live/prod` and
// `live/staging`, or `examples/*` calling `../../`). Any of those states still holding a legacy instance
// would plan to destroy it at its next apply, which resets that zone's live WAF setting to its default.
//
// So the holders are found read-only (`workspace list`, then `state pull` per workspace, through the same
// reader as `--pull-state`) before any change, and when one holds a legacy instance, or cannot be read, the
// blocks are kept: steps 3-5 still run for this root (its state entries leave), step 5 and the final plan
// wait until the last holder has migrated, as ESTATE.md's KEEP_BLOCKS=1 run does.
import type { RepositoryTree } from "../estate/repository-tree.js";
import path from "node:path";
import { LEGACY_WAF_RESOURCE_TYPES } from "../core/legacy-types.js";
import { instancesOfResources, resourceOfInstance } from "../core/resource-match.js";
import { callersOf } from "../estate/module-callers.js";
import { instanceName } from "../estate/order.js";
import { pullStates, type PullStateOptions } from "../estate/pull-state.js";
import type { FileEdit } from "../terraform/edit/legacy-removal.js";

export interface BlockHolders {
  /** Edited module files that other roots also call, relative to cwd. */
  sharedFiles: string[];
  /** Other roots calling a module the edit changes, relative to cwd. */
  callers: string[];
  /** `live/staging (workspace eu)`: states that still hold a legacy instance of the edited blocks. */
  holders: string[];
  /** States that could not be read, with why (then nobody can say they hold nothing). */
  unreadable: string[];
}

export interface BlockHoldersInput {
  /** The root module being migrated (absolute). */
  chdir: string;
  /** The repository's structure, shared with the run's other searches (read here when absent). */
  repositoryTree?: RepositoryTree;
  cwd: string;
  /** The workspace this run migrates (its own state is the one being changed). */
  workspace: string;
  edits: readonly FileEdit[];
  /** Resources (module path, keys dropped) whose instances this root's migration removes. */
  legacyResources: readonly string[];
  pull: Pick<PullStateOptions, "bin" | "createCli" | "onCommand" | "env">;
}

export async function blockHolders(input: BlockHoldersInput): Promise<BlockHolders> {
  const { chdir, cwd } = input;
  // A file outside the root's own directory belongs to a module, which other roots may call too (even
  // one kept under this root's folder).
  const moduleEdits = input.edits.filter((e) => path.resolve(path.dirname(e.absolute)) !== path.resolve(chdir));
  const shown = (abs: string) => path.relative(cwd, abs).split(path.sep).join("/") || ".";
  const callers = moduleEdits.length ? await callersOf(chdir, moduleEdits.map((e) => path.dirname(e.absolute)), input.repositoryTree) : new Map<string, Set<string>>();
  const callerDirs = [...callers.keys()].sort();
  const sharedFiles = moduleEdits.filter((e) => [...callers.values()].some((dirs) => dirs.has(path.resolve(path.dirname(e.absolute))))).map((e) => shown(e.absolute));

  const roots = [{ path: shown(chdir), dir: chdir }, ...callerDirs.map((dir) => ({ path: shown(dir), dir }))];
  // This run's own state is in hand already (preflight pulled it): only the others are read.
  const outcome = await pullStates({ ...input.pull, roots, cwd, jobs: 4, skipWorkspace: (root, ws) => root === roots[0]!.path && ws === input.workspace });
  const holders: string[] = [];
  for (const s of outcome.states) {
    const own = s.root === roots[0]!.path;
    const addresses = s.state?.instances.map((i) => i.address) ?? [];
    // This root's other workspaces instantiate exactly these blocks; another root names its module call
    // as it likes, so any legacy WAF instance there counts (it has not finished its own migration).
    const held = own ? instancesOfResources(addresses, input.legacyResources) : addresses.filter(isLegacyWafInstance);
    if (held.length) holders.push(`${instanceName({ root: s.root, workspace: s.workspace })}: ${held.length} legacy instance${held.length === 1 ? "" : "s"} (${held.slice(0, 3).join(", ")}${held.length > 3 ? ", …" : ""})`);
  }
  const unreadable = outcome.errors.map((e) => `${instanceName({ root: e.root, workspace: e.workspace ?? undefined })}: ${e.message} (${e.fix})`);
  return { sharedFiles, callers: callerDirs.map(shown), holders, unreadable };
}

/** The sentence steps 5 and 6 show when the blocks are kept, or null when nobody else holds them. */
export function keepBlocksReason(h: BlockHolders): string | null {
  if (h.holders.length === 0 && h.unreadable.length === 0) return null;
  const parts = [
    `the legacy blocks are kept: deleting them now would make ${h.holders.length ? "these states" : "states this run cannot read"} destroy their legacy instances at their next apply, which resets the live WAF`,
  ];
  if (h.holders.length) parts.push(`still holding them: ${h.holders.join("; ")}`);
  if (h.unreadable.length) parts.push(`cannot read: ${h.unreadable.join("; ")}`);
  if (h.sharedFiles.length) parts.push(`shared files: ${h.sharedFiles.join(", ")}${h.callers.length ? ` (also called from ${h.callers.join(", ")})` : ""}`);
  parts.push(
    "this root's legacy state entries are gone, so do not run `terraform apply` here until the blocks are deleted: migrate the others, then run this apply again (it finds steps 2-4 done and deletes the blocks), or pass --remove-shared-blocks if you know those states hold nothing",
  );
  return parts.join(". ");
}

function isLegacyWafInstance(address: string): boolean {
  const resource = resourceOfInstance(address);
  if (resource === null) return false;
  // `module.waf.cloudflare_waf_group.off`: the type is the second-to-last part (data sources are never WAF types).
  const type = resource.split(".").at(-2);
  return type !== undefined && LEGACY_WAF_RESOURCE_TYPES.has(type);
}
