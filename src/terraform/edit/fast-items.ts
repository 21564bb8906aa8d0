// The edit guards' fast path. Both guards (tree-sitter for positions, hcl2json for the meaning) are WASM
// runtimes with a start-up cost of about half a second together, paid by every plan for a file or two.
// When the fast reader reads a whole file (../hcl/whole-file.ts), the file is valid HCL, its top-level
// blocks are where it found them, and the only other top-level text is white space and comments: this
// module gives tree-sitter's top-level items for such a file without starting it; for any other file the
// callers ask the runtimes.
import { LineIndex } from "../hcl/parse.js";
import type { FastBlock } from "../hcl/fast.js";
import type { BlockSpan, CommentSpan, TopLevelItems } from "./tree.js";

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
