// The step-6 edit: remove exactly the legacy blocks from the configuration files, every other byte kept,
// as a unified diff (`git apply`-able) plus the edited texts. A file that cannot be edited safely is
// refused with its reason; the plan still lists the blocks so a person can delete them by hand.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { unifiedDiff } from "../core/unified-diff.js";
import type { ConfigResource } from "./config.js";
import { removeBlocks, UnsafeEditError } from "./edit/remove-blocks.js";

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
