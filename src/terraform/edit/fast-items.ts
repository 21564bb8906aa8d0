// The edit guards' fast path. Both guards (tree-sitter for positions, hcl2json for the meaning) are WASM
// runtimes with a start-up cost of about half a second together, paid by every plan for a file or two.
// The fast reader (../hcl/fast.ts) recognises the common subset of HCL exactly as hcl2json reads it and
// refuses everything else; when it reads a whole file, the file is valid HCL, its top-level blocks are
// where it found them, and the only other top-level text is white space and comments. So for such a file
// this module gives what the guards would have given (hcl2json's JSON, tree-sitter's top-level items)
// without starting either runtime; for any other file it returns null and the callers ask the runtimes.
import { excessiveNesting, LineIndex } from "../hcl/parse.js";
import { assembleTopLevel, fastParse, labelShapesConflict, type FastBlock } from "../hcl/fast.js";
import type { BlockSpan, CommentSpan, TopLevelItems } from "./tree.js";

export interface FastFile {
  /** What hcl2json returns for the file (plain objects, as JSON.parse makes them). */
  body: Record<string, unknown>;
  blocks: FastBlock[];
}

/** The whole file through the fast reader, or null when any part of it needs hcl2json. */
export function readWholeFileFast(text: string): FastFile | null {
  // An editor asks twice about each text (positions, then meaning): the last answer is kept.
  if (last !== null && last.text === text) return last.read && { body: withPrototypes(last.read.assembled) as Record<string, unknown>, blocks: last.read.blocks };
  const read = readFast(text);
  last = { text, read };
  return read && { body: withPrototypes(read.assembled) as Record<string, unknown>, blocks: read.blocks };
}

let last: { text: string; read: { assembled: Record<string, unknown>; blocks: FastBlock[] } | null } | null = null;

function readFast(text: string): { assembled: Record<string, unknown>; blocks: FastBlock[] } | null {
  // A `\r` is left to tree-sitter: whether its comment token keeps a `\r` before `\n` is its own business.
  // Deep nesting is left to the runtimes' guards (the fast reader recurses per level).
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

/**
 * The fast reader's blocks as tree-sitter's top-level items: the same spans and lines, and the comments
 * between blocks (the only other text a file the fast reader accepts holds at the top level).
 */
export function fastTopLevelItems(text: string, blocks: readonly FastBlock[]): TopLevelItems {
  const lines = new LineIndex(text);
  const spans: BlockSpan[] = blocks.map((b) => ({
    type: b.type,
    labels: [...b.labels],
    start: b.start,
    end: b.end,
    startLine: lines.lineOf(b.start),
    endLine: lines.lineOf(b.end - 1),
  }));
  const comments: CommentSpan[] = [];
  let from = 0;
  for (const b of blocks) {
    commentsBetween(text, from, b.start, lines, comments);
    from = b.end;
  }
  commentsBetween(text, from, text.length, lines, comments);
  return { blocks: spans, comments, others: [], hasError: false };
}

/** `#` and `//` comments end before their newline, as tree-sitter's comment token does; `/* *\/` at its `*\/`. */
function commentsBetween(text: string, from: number, to: number, lines: LineIndex, out: CommentSpan[]): void {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    let end: number;
    if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
      const nl = text.indexOf("\n", i);
      end = nl === -1 || nl > to ? to : nl;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf("*/", i + 2);
      end = close === -1 ? to : close + 2;
    } else {
      i++;
      continue;
    }
    out.push({ start: i, end, startLine: lines.lineOf(i), endLine: lines.lineOf(Math.max(i, end - 1)) });
    i = end;
  }
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
