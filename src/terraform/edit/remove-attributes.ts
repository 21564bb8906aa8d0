// Surgical removal of single attributes from top-level `locals {}` blocks of a user's Terraform file.
//
// The step-6 patch removes a local whose only job is to feed a legacy resource (`ids = [for p in
// data.cloudflare_waf_packages.anomaly.packages : p.id]`) while the block and its other locals stay. The
// attribute's lines go with the comment lines directly above it and a comment that ends its last line;
// every other character stays, except that when the file was already in `terraform fmt` form, the file
// is formatted again so the remaining `=` of the block stay aligned as `terraform fmt -check` expects
// (fmt changes nothing else in a file that was already in its form). Refused, with an
// AttributeRemovalError, whenever it cannot be proven safe:
//   - the input is not valid UTF-8 or not well-formed UTF-16, or is Terraform's JSON syntax (`.tf.json`);
//   - tree-sitter finds a syntax error, or HashiCorp's parser (@cdktn/hcl2json) rejects the file;
//   - the attribute is not found in any `locals` block, or found more than once;
//   - the attribute shares a line with other content (`locals { a = 1, b = 2 }` on one line);
//   - the edited text does not re-parse with both parsers, or Terraform's parser reads anything else than
//     the original without exactly these attributes.
import { isDeepStrictEqual } from "node:util";
import type { Node } from "web-tree-sitter";
import * as guards from "./guards.js";
import { getHclParser, locateTopLevelBlocks } from "./tree.js";

export type AttributeRemovalReason = "not-utf8" | "json-unsupported" | "syntax-error" | "attribute-not-found" | "attribute-ambiguous" | "shared-line" | "result-invalid";

export class AttributeRemovalError extends guards.RefusedEditError<AttributeRemovalReason> {
  override name = "AttributeRemovalError";
}

export interface RemovedAttribute {
  name: string;
  /** 1-based lines of the attribute itself in the original text. */
  line: number;
  endLine: number;
}

export interface RemoveLocalsResult {
  text: string;
  removed: RemovedAttribute[];
}

const kids = (n: Node): Node[] => n.children.filter((c): c is Node => c !== null);

interface Span {
  start: number;
  end: number;
}

function lineStartOf(text: string, i: number): number {
  return text.lastIndexOf("\n", i - 1) + 1;
}

function lineEndOf(text: string, i: number): number {
  const nl = text.indexOf("\n", i);
  return nl === -1 ? text.length : nl + 1;
}

const isBlank = (s: string): boolean => /^[ \t\r]*\n?$/.test(s);

/** Remove the named locals (attributes of top-level `locals` blocks). All or nothing. */
export async function removeLocals(input: string | Uint8Array, names: string[], opts: { file?: string } = {}): Promise<RemoveLocalsResult> {
  const file = opts.file ?? "<input>";
  const refuse = (reason: AttributeRemovalReason, message: string): AttributeRemovalError => new AttributeRemovalError(file, reason, message);
  if (file.toLowerCase().endsWith(".tf.json")) {
    throw refuse("json-unsupported", "it is Terraform's JSON syntax (.tf.json), which this editor does not change; delete the locals by hand");
  }
  const text = guards.decodeStrict(input, refuse);
  const wanted = [...new Set(names)];
  if (wanted.length === 0) return { text, removed: [] };

  const parser = await getHclParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error("tree-sitter returned no tree");
  const spans: (Span & RemovedAttribute)[] = [];
  let before: Record<string, unknown>;
  try {
    if (tree.rootNode.hasError) throw refuse("syntax-error", "tree-sitter found a syntax error; fix the file (terraform validate) first");
    before = await guards.hclParseOrRefuse(text, file, "before", refuse);
    const found = new Map<string, { attr: Node; siblings: Node[] }[]>();
    for (const block of localsBlocks(tree.rootNode)) {
      const body = kids(block).find((k) => k.type === "body");
      if (!body) continue;
      // A comment before the block's first attribute is a child of the block, not of its body: the
      // attribute's neighbours are both, in text order.
      const siblings = [...kids(block).filter((k) => k.type === "comment"), ...kids(body)].sort((a, b) => a.startIndex - b.startIndex);
      for (const attr of kids(body).filter((k) => k.type === "attribute")) {
        const name = kids(attr)[0]?.text ?? "";
        if (!wanted.includes(name)) continue;
        found.set(name, [...(found.get(name) ?? []), { attr, siblings }]);
      }
    }
    for (const name of wanted) {
      const hits = found.get(name) ?? [];
      if (hits.length === 0) throw refuse("attribute-not-found", `no local ${JSON.stringify(name)} found in a locals block`);
      if (hits.length > 1) throw refuse("attribute-ambiguous", `local ${JSON.stringify(name)} is declared ${hits.length} times`);
      const { attr, siblings } = hits[0]!;
      spans.push({ ...attributeSpan(text, attr, siblings, refuse), name, line: attr.startPosition.row + 1, endLine: attr.endPosition.row + 1 });
    }
  } finally {
    tree.delete();
  }

  let out = text;
  for (const s of [...spans].sort((a, b) => b.start - a.start)) out = out.slice(0, s.start) + out.slice(s.end);

  // Both parsers must accept the result, see the same top-level blocks, and Terraform's parser must read
  // the original without exactly these locals.
  const blocksBefore = await locateTopLevelBlocks(text);
  const blocksAfter = await locateTopLevelBlocks(out);
  if (blocksAfter.hasError) throw refuse("result-invalid", "the edited text would have a syntax error");
  const sig = (bs: { type: string; labels: string[] }[]): string => JSON.stringify(bs.map((b) => [b.type, ...b.labels]));
  if (sig(blocksAfter.blocks) !== sig(blocksBefore.blocks)) throw refuse("result-invalid", "the edited text would not hold the same blocks");
  const expected = structuredClone(before);
  for (const body of Array.isArray(expected.locals) ? (expected.locals as Record<string, unknown>[]) : []) for (const n of wanted) delete body[n];
  const check = async (candidate: string): Promise<boolean> => isDeepStrictEqual(await guards.hclParseOrRefuse(candidate, file, "after", refuse), expected);
  if (!(await check(out))) throw refuse("result-invalid", "Terraform's parser would read more than the removal of these locals");

  // Keep a file that was in `terraform fmt` form in that form (alignment of the remaining `=`).
  const { format } = await import("@cdktn/hcl-tools");
  try {
    if ((await format(text)) === text) {
      const formatted = await format(out);
      if (formatted !== out && (await check(formatted)) && !(await locateTopLevelBlocks(formatted)).hasError) out = formatted;
    }
  } catch {
    // The formatter is a courtesy: the unformatted edit is already proven correct.
  }
  return { text: out, removed: spans.map(({ name, line, endLine }) => ({ name, line, endLine })) };
}

function localsBlocks(root: Node): Node[] {
  const out: Node[] = [];
  const consider = (n: Node): void => {
    if (n.type === "block" && kids(n)[0]?.text === "locals") out.push(n);
  };
  for (const child of kids(root)) {
    if (child.type === "body") kids(child).forEach(consider);
    else consider(child);
  }
  return out;
}

/** The lines to cut: the attribute's, its own-line comments directly above, a comment ending its last line. */
function attributeSpan(text: string, attr: Node, siblings: Node[], refuse: (r: AttributeRemovalReason, m: string) => AttributeRemovalError): Span {
  const idx = siblings.findIndex((s) => s.startIndex === attr.startIndex && s.endIndex === attr.endIndex);
  let start = lineStartOf(text, attr.startIndex);
  let end = attr.endIndex;
  // A trailing comment on the attribute's last line goes with it.
  const after = siblings[idx + 1];
  if (after && after.type === "comment" && after.startPosition.row === attr.endPosition.row) end = after.endIndex;
  if (!/^[ \t]*$/.test(text.slice(start, attr.startIndex))) {
    throw refuse("shared-line", `local ${JSON.stringify(kids(attr)[0]?.text)} (line ${attr.startPosition.row + 1}) shares its line with other content; put it on lines of its own or edit the file by hand`);
  }
  const restOfLine = text.slice(end, lineEndOf(text, end));
  if (!isBlank(restOfLine)) {
    throw refuse("shared-line", `local ${JSON.stringify(kids(attr)[0]?.text)} (line ${attr.startPosition.row + 1}) shares its last line with other content; put it on lines of its own or edit the file by hand`);
  }
  end = lineEndOf(text, end);
  // Comments directly above, each on lines of its own.
  for (let k = idx - 1; k >= 0; k--) {
    const c = siblings[k]!;
    if (c.type !== "comment") break;
    const cEndLineEnd = lineEndOf(text, c.endIndex);
    if (cEndLineEnd !== start || !/^[ \t]*$/.test(text.slice(lineStartOf(text, c.startIndex), c.startIndex))) break;
    if (!isBlank(text.slice(c.endIndex, cEndLineEnd))) break;
    start = lineStartOf(text, c.startIndex);
  }
  // Blank lines: a blank line both before and after would leave two; drop the one after. Before the
  // block's closing brace, drop the blank line before instead.
  const prevLineStart = start > 0 ? lineStartOf(text, start - 1) : start;
  const blankBefore = start > 0 && isBlank(text.slice(prevLineStart, start));
  const nextLineEnd = lineEndOf(text, end);
  if (blankBefore && end < text.length && isBlank(text.slice(end, nextLineEnd))) end = nextLineEnd;
  else if (blankBefore && /^[ \t]*\}/.test(text.slice(end, nextLineEnd))) start = prevLineStart;
  return { start, end };
}
