// The step-6 edit: remove exactly the legacy blocks from the configuration files (and the outputs and
// single locals that only expose them, references/removal-set.ts), every other byte kept, as a unified
// diff (`git apply`-able) plus the edited texts. A file that cannot be edited safely is
// refused with its reason; the plan still lists the blocks so a person can delete them by hand.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { unifiedDiff } from "../../core/unified-diff.js";
import { patchBase, patchPath, type PatchBase } from "../../core/patch-base.js";
import type { ConfigResource } from "../config/load.js";
import { AttributeRemovalError, removeLocals } from "./remove-attributes.js";
import { removeBlocks, UnsafeEditError, type BlockTarget } from "./remove-blocks.js";

/** A resource or data source block, an `output` block, or one attribute of a `locals` block. */
export type RemovalTarget = ConfigResource | { kind: "output" | "local"; file: string; name: string };

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
export async function buildRemoval(base: string, blocks: RemovalTarget[], startTexts: Map<string, string> = new Map()): Promise<RemovalResult> {
  const byFile = new Map<string, RemovalTarget[]>();
  for (const b of blocks) byFile.set(b.file, [...(byFile.get(b.file) ?? []), b]);
  const edits: FileEdit[] = [];
  const refused: { file: string; reason: string }[] = [];
  for (const file of [...byFile.keys()].sort()) {
    const absolute = path.resolve(base, file);
    const all = byFile.get(file)!;
    // In JSON syntax a local is the member `"locals": {"name": …}`, which the block editor cuts like a block.
    const json = file.toLowerCase().endsWith(".tf.json");
    const targets: BlockTarget[] = all.flatMap((b): BlockTarget[] => {
      if (!("kind" in b)) return [{ type: b.mode === "data" ? "data" : "resource", labels: [b.type, b.name] }];
      if (b.kind === "output") return [{ type: "output", labels: [b.name] }];
      return json ? [{ type: "locals", labels: [b.name], anyValue: true }] : [];
    });
    const locals = json ? [] : all.flatMap((b) => ("kind" in b && b.kind === "local" ? [b.name] : []));
    let oldText: string;
    try {
      oldText = startTexts.get(file) ?? (await readFile(absolute, "utf8"));
    } catch (e) {
      refused.push({ file, reason: `cannot read: ${(e as Error).message}` });
      continue;
    }
    try {
      const withoutBlocks = targets.length ? (await removeBlocks(oldText, dedupe(targets), { file })).text : oldText;
      const newText = locals.length ? (await removeLocals(withoutBlocks, locals, { file })).text : withoutBlocks;
      edits.push({ file, absolute, oldText, newText, diff: unifiedDiff(oldText, newText, file) });
    } catch (e) {
      if (!(e instanceof UnsafeEditError) && !(e instanceof AttributeRemovalError)) throw e;
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
