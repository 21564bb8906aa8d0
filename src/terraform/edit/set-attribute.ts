// Surgical change of one string attribute inside a top-level block of a user's Terraform file.
//
// Used by `certs --fix` to switch `certificate_authority`: at the top of a block
// (`cloudflare_certificate_pack`, `cloudflare_total_tls`), inside a nested block (`ssl { … }`, provider 3/4)
// or inside an object attribute (`ssl = { … }`, provider 5). Only the quoted value changes (or, when the
// new value is null, the attribute's whole line goes); every other character of the file stays exactly as
// it was. The edit is refused, with an AttributeEditError, whenever it cannot be proven safe:
//   - the input is not valid UTF-8 (bytes) or not well-formed UTF-16 (string);
//   - the file is Terraform's JSON syntax (`.tf.json`): not handled here, the user edits it by hand;
//   - tree-sitter finds a syntax error, or HashiCorp's parser (@cdktn/hcl2json) rejects the file;
//   - the target block is not found, or declared more than once, or the two parsers disagree about it;
//   - the block does not start on the expected line (the file changed since it was read);
//   - a step of the path (`ssl`) or the attribute is missing, or present more than once;
//   - the attribute's value is not a plain string literal (an expression, a template, a heredoc, a variable)
//     or not the value the caller expects;
//   - a deletion would cut a line shared with other content;
//   - the edited text does not re-parse with both parsers, or Terraform's parser reads anything else than
//     the original with exactly this one value changed.

import { quoteHclString } from "../../core/hcl-string.js";
import { isDeepStrictEqual } from "node:util";

import * as guards from "./guards.js";
import type { Node } from "web-tree-sitter";

import { decodeLabel, getHclParser, locateTopLevelBlocks } from "./tree.js";

export interface AttributeTarget {
  /** The top-level block, e.g. `{ type: "resource", labels: ["cloudflare_total_tls", "shop"] }`. */
  block: { type: string; labels: string[] };
  /** 1-based line where the caller read the block; a block elsewhere is refused (the file changed). */
  line?: number | null;
  /**
   * Attribute path inside the block: `["certificate_authority"]`, or `["ssl", "certificate_authority"]` where
   * `ssl` is a nested block (provider 3/4) or an object-valued attribute (provider 5).
   */
  path: string[];
  /** The value the caller expects the attribute to have now; anything else is refused. Omit to skip the check. */
  from?: string;
  /** The new value (written as a quoted HCL string), or null to delete the attribute's line. */
  to: string | null;
}

export interface AttributeChange {
  target: AttributeTarget;
  /** The value that was there. */
  oldValue: string;
  /** 1-based line of the attribute in the original text. */
  line: number;
  /** UTF-16 range replaced in the original text (the quoted literal, or the whole line when deleted). */
  start: number;
  end: number;
  /** The replaced text and its replacement ("" when deleted). */
  oldText: string;
  newText: string;
  /** False when the attribute already had the value: nothing was changed. */
  changed: boolean;
}

export interface SetAttributeResult {
  text: string;
  changes: AttributeChange[];
}

export interface SetAttributeOptions {
  /** File name for messages; a name ending in `.tf.json` is refused (JSON syntax). Default `<input>`. */
  file?: string;
}

export type AttributeEditReason =
  | "not-utf8"
  | "json-unsupported"
  | "syntax-error"
  | "parsers-disagree"
  | "block-not-found"
  | "block-ambiguous"
  | "block-moved"
  | "attribute-not-found"
  | "attribute-ambiguous"
  | "not-a-literal"
  | "unexpected-value"
  | "shared-line"
  | "result-invalid";

/** The edit was refused: the file is left for the user to change by hand. */
export class AttributeEditError extends guards.RefusedEditError<AttributeEditReason> {
  override name = "AttributeEditError";
}

const describeBlock = (b: AttributeTarget["block"]): string => [b.type, ...b.labels.map((l) => JSON.stringify(l))].join(" ");

/**
 * Change (or delete) one attribute. Pass the file's bytes to have them checked as UTF-8 (a BOM is kept);
 * a string is checked for lone surrogates.
 */
export async function setAttribute(
  input: string | Uint8Array,
  target: AttributeTarget,
  opts: SetAttributeOptions = {},
): Promise<SetAttributeResult> {
  return setAttributes(input, [target], opts);
}

/**
 * Change several attributes of one file at once, all or nothing: if any target is refused, nothing is
 * changed and the AttributeEditError of the first refused target is thrown.
 */
export async function setAttributes(
  input: string | Uint8Array,
  targets: AttributeTarget[],
  opts: SetAttributeOptions = {},
): Promise<SetAttributeResult> {
  const file = opts.file ?? "<input>";
  if (file.toLowerCase().endsWith(".tf.json")) {
    throw new AttributeEditError(
      file,
      "json-unsupported",
      "it is Terraform's JSON syntax (.tf.json), which this editor does not change; edit the value by hand",
    );
  }
  const text = decodeStrict(input, file);

  const parser = await getHclParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error("tree-sitter returned no tree");
  let changes: AttributeChange[];
  let before: Record<string, unknown>;
  try {
    if (tree.rootNode.hasError) {
      throw new AttributeEditError(file, "syntax-error", "tree-sitter found a syntax error; fix the file (terraform validate) first");
    }
    before = await hclParseOrRefuse(text, file, "before");
    changes = targets.map((t) => locateChange(text, tree.rootNode, before, t, file));
  } finally {
    tree.delete();
  }

  // Two targets must not touch the same range (the same attribute named twice, or a deleted line twice).
  const sorted = [...changes].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.start < sorted[i - 1]!.end) {
      throw new AttributeEditError(file, "attribute-ambiguous", `two edits touch line ${sorted[i]!.line}`);
    }
  }
  let out = text;
  for (const c of [...sorted].reverse()) if (c.changed) out = out.slice(0, c.start) + c.newText + out.slice(c.end);
  if (out === text) return { text, changes };

  // Re-parse: both parsers must accept the result, tree-sitter must see the same top-level blocks, and
  // Terraform's parser must read exactly the original with these values changed.
  const blocksBefore = await locateTopLevelBlocks(text);
  const blocksAfter = await locateTopLevelBlocks(out);
  if (blocksAfter.hasError) throw new AttributeEditError(file, "result-invalid", "the edited text would have a syntax error");
  const sig = (bs: { type: string; labels: string[] }[]): string => JSON.stringify(bs.map((b) => [b.type, ...b.labels]));
  if (sig(blocksAfter.blocks) !== sig(blocksBefore.blocks)) {
    throw new AttributeEditError(file, "result-invalid", "the edited text would not hold the same blocks");
  }
  const after = await hclParseOrRefuse(out, file, "after");
  const expected = structuredClone(before);
  for (const c of changes) applyToJson(expected, c.target, file);
  if (!isDeepStrictEqual(after, expected)) {
    throw new AttributeEditError(file, "result-invalid", "Terraform's parser would read more than the intended change");
  }
  return { text: out, changes };
}

/** A value as a quoted HCL string literal: escapes, and `${`/`%{` doubled so they stay literal text. */
export const encodeHclString = quoteHclString;

function decodeStrict(input: string | Uint8Array, file: string): string {
  return guards.decodeStrict(input, (reason, message) => new AttributeEditError(file, reason, message));
}

function hclParseOrRefuse(text: string, file: string, when: "before" | "after"): Promise<Record<string, unknown>> {
  return guards.hclParseOrRefuse(text, file, when, (reason, message) => new AttributeEditError(file, reason, message));
}

// ---- Locating the attribute ------------------------------------------------------------------------------

const kids = (n: Node): Node[] => n.children.filter((c): c is Node => c !== null);

function topLevelBlocks(root: Node): Node[] {
  const out: Node[] = [];
  for (const child of kids(root)) {
    if (child.type === "body") out.push(...kids(child).filter((c) => c.type === "block"));
    else if (child.type === "block") out.push(child);
  }
  return out;
}

function blockTypeAndLabels(block: Node): { type: string; labels: string[] } {
  const k = kids(block);
  const labels: string[] = [];
  for (const c of k.slice(1)) {
    if (c.type === "block_start") break;
    labels.push(decodeLabel(c.text));
  }
  return { type: k[0]?.text ?? "", labels };
}

const bodyOf = (block: Node): Node | null => kids(block).find((c) => c.type === "body") ?? null;

/** The value node of an attribute (`expression`), or of an object element (its second expression). */
function valueOf(n: Node): Node | null {
  const exprs = kids(n).filter((c) => c.type === "expression");
  return n.type === "attribute" ? (exprs[0] ?? null) : (exprs[1] ?? null);
}

/** The key of an object element as HCL reads it (`ssl`, `"ssl"`), or null for a computed key. */
function objectKey(elem: Node): string | null {
  const keyExpr = kids(elem).find((c) => c.type === "expression");
  if (!keyExpr) return null;
  const k = kids(keyExpr);
  if (k.length !== 1) return null;
  const only = k[0]!;
  if (only.type === "variable_expr" && kids(only).length === 1) return only.text;
  const lit = plainStringLiteral(keyExpr);
  return lit?.value ?? null;
}

/** The object node an `expression` holds directly (`{ … }`), or null. */
function objectOf(expr: Node): Node | null {
  const k = kids(expr);
  if (k.length !== 1 || k[0]!.type !== "collection_value") return null;
  const obj = kids(k[0]!)[0];
  return obj && obj.type === "object" ? obj : null;
}

/** A `"…"` literal without interpolation or directives: its decoded value and the literal's node. */
function plainStringLiteral(expr: Node): { value: string; node: Node } | null {
  const k = kids(expr);
  if (k.length !== 1 || k[0]!.type !== "literal_value") return null;
  const lv = kids(k[0]!);
  if (lv.length !== 1 || lv[0]!.type !== "string_lit") return null;
  const lit = lv[0]!;
  const parts = kids(lit);
  if (parts[0]?.type !== "quoted_template_start" || parts[parts.length - 1]?.type !== "quoted_template_end") return null;
  if (!parts.slice(1, -1).every((p) => p.type === "template_literal" || p.type === "escape_sequence")) return null;
  return { value: decodeLabel(lit.text), node: lit };
}

/** Where the path's value lives: a block body or an object. */
type Holder = { kind: "body"; node: Node; what: string } | { kind: "object"; node: Node; what: string };

interface Member {
  /** The attribute or object_elem node. */
  node: Node;
  /** Its value expression. */
  value: Node;
}

/** The members named `name` in a holder: attributes / object elements, and nested blocks (body only). */
function membersNamed(h: Holder, name: string): { members: Member[]; blocks: Node[]; dynamic: boolean } {
  const members: Member[] = [];
  const blocks: Node[] = [];
  let dynamic = false;
  for (const c of kids(h.node)) {
    if (h.kind === "body" && c.type === "attribute") {
      if (kids(c)[0]?.text === name) {
        const v = valueOf(c);
        if (v) members.push({ node: c, value: v });
      }
    } else if (h.kind === "body" && c.type === "block") {
      const { type, labels } = blockTypeAndLabels(c);
      if (type === name && labels.length === 0) blocks.push(c);
      if (type === "dynamic" && labels[0] === name) dynamic = true;
    } else if (h.kind === "object" && c.type === "object_elem") {
      if (objectKey(c) === name) {
        const v = valueOf(c);
        if (v) members.push({ node: c, value: v });
      }
    }
  }
  return { members, blocks, dynamic };
}

function locateChange(
  text: string,
  root: Node,
  parsed: Record<string, unknown>,
  target: AttributeTarget,
  file: string,
): AttributeChange {
  const where = describeBlock(target.block);
  if (target.path.length === 0) throw new Error("setAttribute: empty attribute path");

  const hits = topLevelBlocks(root).filter((b) => {
    const { type, labels } = blockTypeAndLabels(b);
    return type === target.block.type && labels.length === target.block.labels.length && labels.every((l, i) => l === target.block.labels[i]);
  });
  if (hits.length === 0) throw new AttributeEditError(file, "block-not-found", `no ${where} block found`);
  if (hits.length > 1) {
    throw new AttributeEditError(
      file,
      "block-ambiguous",
      `${where} is declared ${hits.length} times (lines ${hits.map((h) => h.startPosition.row + 1).join(", ")})`,
    );
  }
  const jsonCount = hclJsonBlocks(parsed, target.block).length;
  if (jsonCount !== 1) {
    throw new AttributeEditError(file, "parsers-disagree", `tree-sitter sees one ${where} block, Terraform's parser ${jsonCount}`);
  }
  const block = hits[0]!;
  const blockLine = block.startPosition.row + 1;
  if (target.line != null && target.line !== blockLine) {
    throw new AttributeEditError(
      file,
      "block-moved",
      `${where} starts on line ${blockLine}, not line ${target.line} as when it was read; the file changed, run again`,
    );
  }
  const body = bodyOf(block);
  if (!body) throw new AttributeEditError(file, "attribute-not-found", `${where} (line ${blockLine}) is empty`);

  let holder: Holder = { kind: "body", node: body, what: `${where} (line ${blockLine})` };
  const steps = target.path.slice(0, -1);
  const attr = target.path[target.path.length - 1]!;
  for (const step of steps) {
    const { members, blocks, dynamic } = membersNamed(holder, step);
    const count = members.length + blocks.length;
    if (count === 0) {
      const why = dynamic ? ` (it is a dynamic "${step}" block, generated from an expression)` : "";
      throw new AttributeEditError(file, dynamic ? "not-a-literal" : "attribute-not-found", `${holder.what} has no ${step} block or attribute${why}`);
    }
    if (count > 1) {
      throw new AttributeEditError(file, "attribute-ambiguous", `${holder.what} has ${count} ${step} blocks or attributes`);
    }
    if (blocks.length === 1) {
      const inner = bodyOf(blocks[0]!);
      if (!inner) throw new AttributeEditError(file, "attribute-not-found", `the ${step} block of ${holder.what} is empty`);
      holder = { kind: "body", node: inner, what: `the ${step} block of ${holder.what}` };
    } else {
      const obj = objectOf(members[0]!.value);
      if (!obj) {
        throw new AttributeEditError(
          file,
          "not-a-literal",
          `${step} in ${holder.what} is set by an expression (${truncate(members[0]!.value.text)}), not written as { … }`,
        );
      }
      holder = { kind: "object", node: obj, what: `the ${step} object of ${holder.what}` };
    }
  }

  const { members, blocks, dynamic } = membersNamed(holder, attr);
  if (blocks.length > 0 || dynamic) {
    throw new AttributeEditError(file, "not-a-literal", `${attr} in ${holder.what} is a block, not an attribute`);
  }
  if (members.length === 0) throw new AttributeEditError(file, "attribute-not-found", `${holder.what} does not set ${attr}`);
  if (members.length > 1) throw new AttributeEditError(file, "attribute-ambiguous", `${holder.what} sets ${attr} ${members.length} times`);
  const member = members[0]!;
  const line = member.node.startPosition.row + 1;
  const lit = plainStringLiteral(member.value);
  if (!lit) {
    throw new AttributeEditError(
      file,
      "not-a-literal",
      `${attr} on line ${line} is ${truncate(member.value.text)}, not a plain string literal; change it by hand`,
    );
  }
  if (target.from !== undefined && lit.value !== target.from) {
    throw new AttributeEditError(
      file,
      "unexpected-value",
      `${attr} on line ${line} is ${JSON.stringify(lit.value)}, not ${JSON.stringify(target.from)}; the file changed, run again`,
    );
  }

  if (target.to !== null) {
    const changed = lit.value !== target.to;
    const newText = changed ? encodeHclString(target.to) : lit.node.text;
    return {
      target,
      oldValue: lit.value,
      line,
      start: lit.node.startIndex,
      end: lit.node.endIndex,
      oldText: lit.node.text,
      newText,
      changed,
    };
  }

  // Deletion: the whole line goes, so it may hold nothing but this attribute (plus a trailing comma in an
  // object, and a trailing comment, which belongs to it).
  const start = text.lastIndexOf("\n", member.node.startIndex - 1) + 1;
  const nl = text.indexOf("\n", member.node.endIndex);
  const end = nl === -1 ? text.length : nl + 1;
  const lead = text.slice(start, member.node.startIndex);
  const trail = text.slice(member.node.endIndex, nl === -1 ? text.length : nl);
  const trailOk = /^[ \t]*,?[ \t]*(?:(?:#|\/\/)[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?\r?$/.test(trail);
  if (!/^[ \t]*$/.test(lead.replace(/^\uFEFF/, "")) || !trailOk || member.node.startPosition.row !== member.node.endPosition.row) {
    throw new AttributeEditError(
      file,
      "shared-line",
      `${attr} on line ${line} shares its line with other content; put it on a line of its own or delete it by hand`,
    );
  }
  const from = lead.startsWith("\uFEFF") ? start + 1 : start;
  return {
    target,
    oldValue: lit.value,
    line,
    start: from,
    end,
    oldText: text.slice(from, end),
    newText: "",
    changed: true,
  };
}

function truncate(s: string): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > 60 ? one.slice(0, 57) + "..." : one;
}

// ---- The expected result, as Terraform's parser reads it --------------------------------------------------

/** The bodies hcl2json gives for a block (`{type: {l1: {l2: [ … ]}}}`). */
function hclJsonBlocks(parsed: Record<string, unknown>, block: AttributeTarget["block"]): unknown[] {
  let v: unknown = parsed[block.type];
  for (const l of block.labels) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return [];
    v = (v as Record<string, unknown>)[l];
  }
  return Array.isArray(v) ? v : [];
}

function applyToJson(parsed: Record<string, unknown>, target: AttributeTarget, file: string): void {
  const fail = (): never => {
    throw new AttributeEditError(file, "parsers-disagree", `Terraform's parser reads ${target.path.join(".")} differently`);
  };
  let holder: unknown = hclJsonBlocks(parsed, target.block)[0];
  for (const step of target.path.slice(0, -1)) {
    if (holder === null || typeof holder !== "object" || Array.isArray(holder)) fail();
    let next = (holder as Record<string, unknown>)[step];
    if (Array.isArray(next)) {
      if (next.length !== 1) fail();
      next = next[0];
    }
    holder = next;
  }
  if (holder === null || typeof holder !== "object" || Array.isArray(holder)) fail();
  const obj = holder as Record<string, unknown>;
  const attr = target.path[target.path.length - 1]!;
  if (!(attr in obj)) fail();
  if (target.to === null) delete obj[attr];
  else obj[attr] = target.to;
}
