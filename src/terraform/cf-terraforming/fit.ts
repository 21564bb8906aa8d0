// cf-terraforming's ruleset fitted to the provider versions of steps 1-6, like the generated one: the
// optional constructs those versions lack (logging on a skip rule, a rule's ref) are taken out of its text,
// line by line, and everything else stays byte for byte. Which constructs to drop is core's decision
// (core/version-fit.ts); this only finds them in the text (tree-sitter gives the exact ranges).
import type { Node } from "web-tree-sitter";
import { getHclParser } from "../edit/tree.js";

/** A block's or attribute's name (its first identifier). */
function nameOf(node: Node): string {
  return node.children.find((c) => c?.type === "identifier")?.text ?? "";
}

function collect(body: Node, prefix: string, drop: ReadonlySet<string>, out: Node[]): void {
  for (const child of body.children) {
    if (!child || (child.type !== "block" && child.type !== "attribute")) continue;
    const path = prefix ? `${prefix}.${nameOf(child)}` : nameOf(child);
    if (drop.has(path)) {
      out.push(child);
      continue;
    }
    const inner = child.type === "block" ? child.children.find((c) => c?.type === "body") : null;
    if (inner) collect(inner, path, drop, out);
  }
}

/** Whole lines from a node's line start to its line end (the node is alone on its lines in generated HCL). */
function lineRange(text: string, node: Node): [number, number] {
  const start = text.lastIndexOf("\n", node.startIndex - 1) + 1;
  const nl = text.indexOf("\n", node.endIndex);
  return [start, nl < 0 ? text.length : nl + 1];
}

/**
 * `text` (one `resource "cloudflare_ruleset"` block) without the constructs named (paths below the resource,
 * `rules.logging`). A construct that shares a line with something else is left alone: removing it would
 * take the other thing too, and the caller's header still says what the version lacks.
 */
export async function dropConstructs(text: string, constructs: readonly string[]): Promise<{ text: string; dropped: string[] }> {
  if (constructs.length === 0) return { text, dropped: [] };
  const parser = await getHclParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error("tree-sitter returned no tree");
  try {
    const resource = tree.rootNode.descendantsOfType("block").find((b) => b !== null && nameOf(b) === "resource");
    const body = resource?.children.find((c) => c?.type === "body");
    if (!body || tree.rootNode.hasError) return { text, dropped: [] };
    const nodes: Node[] = [];
    collect(body, "", new Set(constructs), nodes);
    const ranges = nodes
      .map((n) => ({ n, r: lineRange(text, n) }))
      .filter(({ n, r }) => text.slice(r[0], n.startIndex).trim() === "" && text.slice(n.endIndex, r[1]).trim() === "")
      .sort((a, b) => b.r[0] - a.r[0]);
    let out = text;
    const dropped = new Set<string>();
    for (const { n, r } of ranges) {
      out = out.slice(0, r[0]) + out.slice(r[1]);
      dropped.add(constructs.find((c) => c.endsWith(`.${nameOf(n)}`) || c === nameOf(n)) ?? nameOf(n));
    }
    return { text: out, dropped: [...dropped] };
  } finally {
    tree.delete();
  }
}
