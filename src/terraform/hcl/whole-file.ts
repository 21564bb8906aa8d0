// A whole file through the fast reader (./fast.ts), for the callers that would otherwise start hcl2json
// (WASM, ~0.3 s to start) for a file or two: the lock file reader and the edit guards. The fast reader
// recognises the common subset of HCL exactly as hcl2json reads it and refuses everything else, so when it
// reads the whole file the answer is hcl2json's; otherwise this returns null and the caller asks hcl2json.
import { assembleTopLevel, fastParse, labelShapesConflict, type FastBlock } from "./fast.js";
import { excessiveNesting } from "./parse.js";

export interface FastFile {
  /** What hcl2json returns for the file (plain objects, as JSON.parse makes them). */
  body: Record<string, unknown>;
  blocks: FastBlock[];
}

/** The whole file through the fast reader, or null when any part of it needs hcl2json. */
export function readWholeFileFast(text: string): FastFile | null {
  const read = lastRead(text);
  return read && { body: withPrototypes(read.assembled) as Record<string, unknown>, blocks: read.blocks };
}

/**
 * Only the blocks (positions and labels) of a file the fast reader reads whole, else null: without the copy
 * of its body that `readWholeFileFast` makes (a third of an estate plan's block removals went to copies of
 * bodies nobody read).
 */
export function wholeFileBlocksFast(text: string): FastBlock[] | null {
  return lastRead(text)?.blocks ?? null;
}

/** An editor asks twice about each text (positions, then meaning): the last answer is kept. */
function lastRead(text: string): { assembled: Record<string, unknown>; blocks: FastBlock[] } | null {
  if (last !== null && last.text === text) return last.read;
  const read = readFast(text);
  last = { text, read };
  return read;
}

let last: { text: string; read: { assembled: Record<string, unknown>; blocks: FastBlock[] } | null } | null = null;

function readFast(text: string): { assembled: Record<string, unknown>; blocks: FastBlock[] } | null {
  // A `\r` is left to the runtimes (tree-sitter's comment token may keep a `\r` before `\n`); deep
  // nesting too, to their guards (the fast reader recurses per level).
  if (text.includes("\r") || excessiveNesting(text)) return null;
  let fast: ReturnType<typeof fastParse>;
  try {
    fast = fastParse(text, { select: () => true });
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
  if (!fast.ok || labelShapesConflict(fast.blocks)) return null;
  if (fast.blocks.some((b) => b.needsJudge || b.body === null)) return null;
  const assembled = assembleTopLevel(fast.blocks.map((b) => ({ type: b.type, labels: b.labels, body: b.body! })));
  if (assembled === null) return null;
  return { assembled, blocks: fast.blocks };
}

/** Plain objects again: the fast reader's have no prototype, hcl2json's (JSON.parse) do. */
function withPrototypes(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(withPrototypes);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    // defineProperty, as JSON.parse does: a `__proto__` key is data, never the prototype.
    Object.defineProperty(out, k, { value: withPrototypes((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
