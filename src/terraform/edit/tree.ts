// Source positions of top-level HCL blocks, from tree-sitter (web-tree-sitter + tree-sitter-hcl, WASM).
//
// hcl2json has no positions at all; tree-sitter gives a lossless concrete syntax tree with exact ranges.
// Offsets are UTF-16 code-unit offsets into the JS string (slice strings, never Buffers). Tree-sitter is
// not a validator (no messages, error recovery may swallow blocks): callers that edit must also check
// with hcl2json.

import { unquoteHclString } from "../../core/hcl-string.js";
import { createRequire } from "node:module";
import type { Node, Parser } from "web-tree-sitter";

export interface BlockSpan {
  /** Block type: `resource`, `data`, `module`, `locals`, … */
  type: string;
  /** Labels with their quotes removed and escapes decoded. */
  labels: string[];
  /** UTF-16 offset of the first character of the block (its type identifier). */
  start: number;
  /** UTF-16 offset just past the closing `}`. */
  end: number;
  /** 1-based line of `start`. */
  startLine: number;
  /** 1-based line of the closing `}`. */
  endLine: number;
}

/** A top-level comment: `#`, `//` or `/* … *\/`. */
export interface CommentSpan {
  start: number;
  end: number;
  startLine: number;
  endLine: number;
}

/** Any other top-level item (an attribute, or an `ERROR` node), for overlap checks. */
export interface OtherSpan {
  type: string;
  start: number;
  end: number;
}

export interface TopLevelBlocks {
  blocks: BlockSpan[];
  /** True when tree-sitter found a syntax error or had to insert a missing token anywhere in the file. */
  hasError: boolean;
}

export interface TopLevelItems extends TopLevelBlocks {
  comments: CommentSpan[];
  others: OtherSpan[];
}

let parserPromise: Promise<Parser> | null = null;

/** The HCL grammar's WASM file inside node_modules. */
export function hclGrammarPath(): string {
  const require = createRequire(import.meta.url);
  return require.resolve("@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm");
}

/** One parser for the whole process: `Parser.init()` and the grammar load run once, on first use. */
export function getHclParser(): Promise<Parser> {
  if (!parserPromise) {
    parserPromise = (async () => {
      // Loaded on first use: the WASM runtime is not needed to start the CLI.
      const { Language, Parser } = await import("web-tree-sitter");
      await Parser.init();
      const language = await Language.load(hclGrammarPath());
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    })();
    // A failed load should be retried by the next caller rather than cached forever.
    parserPromise.catch(() => {
      parserPromise = null;
    });
  }
  return parserPromise;
}

/**
 * Decode the text of a `string_lit` label. Labels are quoted template literals without interpolation;
 * HCL's escapes are a superset of JSON's except `\U` (8 hex digits) and the template escapes `$${`/`%%{`.
 */
export function decodeLabel(raw: string): string {
  if (!raw.startsWith('"')) return raw; // identifier label
  return unquoteHclString(raw.slice(1, raw.endsWith('"') && raw.length > 1 ? -1 : undefined));
}

function topLevelNodes(root: Node): Node[] {
  // config_file holds comments before the body and the body itself; the body holds blocks, attributes
  // and the comments between them.
  const out: Node[] = [];
  for (const child of root.children) {
    if (!child) continue;
    if (child.type === "body") {
      for (const c of child.children) if (c) out.push(c);
    } else {
      out.push(child);
    }
  }
  return out;
}

/** Every top-level item with its range: blocks, comments, and everything else. */
export async function locateTopLevelItems(text: string): Promise<TopLevelItems> {
  const parser = await getHclParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error("tree-sitter returned no tree");
  try {
    const root = tree.rootNode;
    const blocks: BlockSpan[] = [];
    const comments: CommentSpan[] = [];
    const others: OtherSpan[] = [];
    for (const node of topLevelNodes(root)) {
      if (node.type === "block") {
        const kids = node.children.filter((c): c is Node => c !== null);
        const typeNode = kids[0];
        const labels: string[] = [];
        for (const k of kids.slice(1)) {
          if (k.type === "block_start") break;
          labels.push(decodeLabel(k.text));
        }
        blocks.push({
          type: typeNode?.text ?? "",
          labels,
          start: node.startIndex,
          end: node.endIndex,
          startLine: node.startPosition.row + 1,
          endLine: node.endPosition.row + 1,
        });
      } else if (node.type === "comment") {
        comments.push({
          start: node.startIndex,
          end: node.endIndex,
          startLine: node.startPosition.row + 1,
          endLine: node.endPosition.row + 1,
        });
      } else {
        others.push({ type: node.type, start: node.startIndex, end: node.endIndex });
      }
    }
    return { blocks, comments, others, hasError: root.hasError };
  } finally {
    tree.delete();
  }
}

/** The top-level blocks of an HCL file, with UTF-16 offsets and 1-based lines. */
export async function locateTopLevelBlocks(text: string): Promise<TopLevelBlocks> {
  const { blocks, hasError } = await locateTopLevelItems(text);
  return { blocks, hasError };
}
