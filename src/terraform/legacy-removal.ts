// The step-6 edit: remove exactly the legacy blocks from the configuration files, every other byte kept,
// as a unified diff (`git apply`-able) plus the edited texts. A file that cannot be edited safely is
// refused with its reason; the plan still lists the blocks so a person can delete them by hand.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { unifiedDiff } from "../core/unified-diff.js";
import { patchBase, patchPath, type PatchBase } from "../core/patch-base.js";
import type { ConfigResource } from "./config.js";
import { removeBlocks, UnsafeEditError } from "./edit/remove-blocks.js";
import { configAddressFor, LEGACY_DATA_SOURCES } from "./inventory.js";
import type { ConfigTree } from "./modules.js";

/** Managed legacy types whose state entries go in step 5 and whose blocks go in step 6. */
export const LEGACY_RESOURCE_TYPES: ReadonlySet<string> = new Set(["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule"]);

/** A block step 6 deletes: a legacy package, group or rule, or a legacy data source. */
export function isLegacyBlock(r: Pick<ConfigResource, "mode" | "type">): boolean {
  return (r.mode === "managed" && LEGACY_RESOURCE_TYPES.has(r.type)) || (r.mode === "data" && LEGACY_DATA_SOURCES.has(r.type));
}

export interface BlockTargets {
  /** Each block once (a module called twice has one block in one file). */
  blocks: ConfigResource[];
  /**
   * The resources those blocks are, with their module paths and without instance keys, one per module
   * call path that instantiates the file (`module.waf.cloudflare_waf_group.g`): what state is checked for.
   */
  configAddresses: string[];
}

/** The blocks of the configuration tree that `keep` selects, and the resources they declare. */
export function blockTargets(tree: ConfigTree, keep: (r: ConfigResource) => boolean): BlockTargets {
  const seen = new Set<string>();
  const blocks: ConfigResource[] = [];
  const configAddresses = new Set<string>();
  for (const node of tree.nodes) {
    for (const r of node.dir.resources) {
      if (!keep(r)) continue;
      configAddresses.add(configAddressFor(node, r));
      const key = `${r.file}\u0000${r.mode}\u0000${r.type}\u0000${r.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      blocks.push(r);
    }
  }
  return { blocks, configAddresses: [...configAddresses].sort() };
}

/** The edits as one patch whose paths are relative to `base` (see plan/patch-base.ts). */
export function renderPatch(edits: readonly FileEdit[], base: PatchBase): string {
  return [...edits]
    .sort((a, b) => (patchPath(base, a.absolute) < patchPath(base, b.absolute) ? -1 : 1))
    .map((e) => unifiedDiff(e.oldText, e.newText, patchPath(base, e.absolute)))
    .join("");
}

/** The directory the patches of these edits apply from, for the root module `rootAbsolute`. */
export function patchBaseFor(rootAbsolute: string, edits: readonly FileEdit[]): PatchBase {
  return patchBase(rootAbsolute, edits.map((e) => e.absolute));
}

export interface FileEdit {
  /** Path relative to the base directory (as in the report). */
  file: string;
  absolute: string;
  oldText: string;
  newText: string;
  diff: string;
}

export interface RemovalResult {
  edits: FileEdit[];
  /** The whole patch (all files, in path order). */
  patch: string;
  refused: { file: string; reason: string }[];
}

/**
 * `startTexts` holds files as an earlier patch leaves them (the step-0 override removal), so a second
 * patch applies on top of the first.
 */
export async function buildRemoval(base: string, blocks: ConfigResource[], startTexts: Map<string, string> = new Map()): Promise<RemovalResult> {
  const byFile = new Map<string, ConfigResource[]>();
  for (const b of blocks) byFile.set(b.file, [...(byFile.get(b.file) ?? []), b]);
  const edits: FileEdit[] = [];
  const refused: { file: string; reason: string }[] = [];
  for (const file of [...byFile.keys()].sort()) {
    const absolute = path.resolve(base, file);
    const targets = byFile.get(file)!.map((b) => ({ type: b.mode === "data" ? "data" : "resource", labels: [b.type, b.name] }));
    let oldText: string;
    try {
      oldText = startTexts.get(file) ?? (await readFile(absolute, "utf8"));
    } catch (e) {
      refused.push({ file, reason: `cannot read: ${(e as Error).message}` });
      continue;
    }
    try {
      const { text: newText } = await removeBlocks(oldText, dedupe(targets), { file });
      edits.push({ file, absolute, oldText, newText, diff: unifiedDiff(oldText, newText, file) });
    } catch (e) {
      if (!(e instanceof UnsafeEditError)) throw e;
      refused.push({ file, reason: e.message });
    }
  }
  return { edits, patch: edits.map((e) => e.diff).join(""), refused };
}

function dedupe<T extends { type: string; labels: string[] }>(targets: T[]): T[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const k = [t.type, ...t.labels].join("\u0000");
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
