// A migration of one root deletes legacy blocks, and the module outputs that only expose them, from a module
// other roots call too (a module's `examples/complete` calling `../../`, `live/prod` and `live/dev` sharing
// `modules/waf`). Its own reference check covers its own tree; an expression of another caller that reads
// such an output (`output "owasp" { value = module.waf.owasp_package }`) would be left dangling, and that
// root would no longer plan. Found the same way as a root's own: the caller's reference graph, with only the
// blocks this migration deletes taken as removed.
import path from "node:path";
import { finding, sortFindings } from "../../core/findings.js";
import type { Finding } from "../../core/model.js";
import { removalClosure } from "../../core/references/closure.js";
import { loadRootConfiguration } from "../inventory/workspace.js";
import { readReferenceGraph } from "./graph.js";
import { describeItem, isLegacyBlock } from "./removal-set.js";

export interface CallerReferencesInput {
  /** Other root modules calling a module whose files this migration edits (absolute). */
  callers: readonly string[];
  /** The files step 6 edits (absolute): what they lose, every caller loses. */
  editedFiles: readonly string[];
  /** Finding files are relative to this directory (the migrated root's base). */
  base: string;
}

/** One LEGACY_REFERENCE per expression of another caller that step 6 would leave dangling. */
export async function callerReferenceFindings(input: CallerReferencesInput): Promise<Finding[]> {
  const edited = new Set(input.editedFiles.map((f) => path.resolve(f)));
  const out: Finding[] = [];
  for (const dir of [...input.callers].sort()) {
    // The caller alone, not the roots in directories below it: their references are theirs.
    const ws = await loadRootConfiguration(dir);
    const abs = (file: string) => path.resolve(ws.base, file);
    const shown = (file: string) => path.relative(input.base, abs(file)).split(path.sep).join("/");
    const root = path.relative(input.base, dir).split(path.sep).join("/") || ".";
    const graph = await readReferenceGraph(ws, isLegacyBlock);
    // Only the blocks this migration deletes go: the caller's own legacy blocks are its own migration's.
    const closure = removalClosure(graph.graphs.map((g) => ({ ...g, items: g.items.map((i) => (i.legacy && !edited.has(abs(i.file)) ? { ...i, legacy: false } : i)) })));
    // What goes with them in the caller's own files: step 6 does not edit those, so it would stay, dangling.
    for (const r of closure.removed) {
      if (edited.has(abs(r.item.file)) || (r.item.kind !== "output" && r.item.kind !== "local")) continue;
      out.push(
        finding(
          "LEGACY_REFERENCE",
          `${describeItem(r.item)} of root ${root} (which calls a module step 6 edits) only exposes ${r.because.join(", ")}, which step 6 deletes with the legacy WAF blocks: after step 6 that root no longer plans; delete it (and what uses it) at ${shown(r.item.file)}:${r.item.line} first, or plan the roots together`,
          { file: shown(r.item.file), line: r.item.line, zoneId: null },
          { referenced: r.because, referrer: r.item.key, otherRoot: root },
        ),
      );
    }
    for (const d of closure.dangling) {
      if (edited.has(abs(d.use.file))) continue; // this migration's own reference check reports it
      out.push(
        finding(
          "LEGACY_REFERENCE",
          `${describeItem(d.item)} of root ${root} (which calls a module step 6 edits) refers to ${d.referenced}, which step 6 deletes with the legacy WAF blocks: after step 6 that root no longer plans; edit ${shown(d.use.file)}:${d.use.line} so that it no longer does first, or plan the roots together`,
          { file: shown(d.use.file), line: d.use.line, zoneId: null },
          { referenced: d.referenced, referrer: d.item.key, argument: d.use.argument, otherRoot: root },
        ),
      );
    }
  }
  return sortFindings(out);
}
