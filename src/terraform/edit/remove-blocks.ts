// Surgical removal of top-level blocks from a user's Terraform file.
//
// Only the removed block, the comment lines directly above it and one following blank line change (a
// removal that reaches the end of the file takes one preceding blank line instead); every other character
// of the file stays exactly as it was (no re-formatting, line endings and a BOM kept). The edit is
// refused, with an UnsafeEditError, whenever it cannot be proven safe:
//   - the input is not valid UTF-8 (bytes) or not well-formed UTF-16 (string), so slicing could alter it;
//   - tree-sitter finds a syntax error, or HashiCorp's parser (@cdktn/hcl2json) rejects the file;
//   - the two parsers disagree about which blocks the file holds;
//   - a target block is not found, or found more than once;
//   - a target block shares a line with other content that would have to be cut;
//   - the edited text does not re-parse cleanly with both parsers, or holds other blocks than expected.
//
// `.tf.json` files (Terraform's JSON syntax) are edited too, for the common shape
// `{"resource": {"TYPE": {"NAME": {…}}}}` where every level on the path is a JSON object: the member is
// cut out together with its separating comma, and a parent object it leaves empty is removed as well.
// Any other shape (arrays of block objects, duplicate keys on the path) is refused with a message that
// asks the user to edit that file by hand.

import * as guards from "./guards.js";
import { wholeFileBlocksFast } from "../hcl/whole-file.js";
import { fastTopLevelItems } from "./fast-items.js";
import { locateTopLevelItems, type BlockSpan, type TopLevelItems } from "./tree.js";

export interface BlockTarget {
  type: string;
  labels: string[];
  /**
   * JSON syntax only: the member's value may be anything (a local, `"locals": {"ids": […]}`), not only a
   * block body object.
   */
  anyValue?: boolean;
}

/** One removed block and the span actually cut from the original text (comments and blank line included). */
export interface RemovedBlock {
  type: string;
  labels: string[];
  /** UTF-16 offset of the first removed character in the original text. */
  start: number;
  /** UTF-16 offset just past the last removed character in the original text. */
  end: number;
  /** 1-based first removed line. */
  startLine: number;
  /** 1-based last removed line. */
  endLine: number;
  /** 1-based lines of the block itself (without its comments), as in the original text. */
  blockStartLine: number;
  blockEndLine: number;
}

export interface RemoveBlocksResult {
  text: string;
  removed: RemovedBlock[];
}

export interface RemoveBlocksOptions {
  /** File name for messages; a name ending in `.tf.json` selects the JSON syntax. Default `<input>`. */
  file?: string;
  /** Force the syntax instead of deciding from the file name. */
  syntax?: "hcl" | "json";
}

export type UnsafeEditReason =
  | "not-utf8"
  | "syntax-error"
  | "parsers-disagree"
  | "target-not-found"
  | "target-ambiguous"
  | "shared-line"
  | "result-invalid"
  | "json-unsupported";

/** The edit was refused: the file is left for the user (or a later run) to change by hand. */
export class UnsafeEditError extends guards.RefusedEditError<UnsafeEditReason> {
  override name = "UnsafeEditError";
}

const describe = (t: BlockTarget): string =>
  [t.type, ...t.labels.map((l) => JSON.stringify(l))].join(" ");

const sameTarget = (a: BlockTarget, b: BlockTarget): boolean =>
  a.type === b.type && a.labels.length === b.labels.length && a.labels.every((l, i) => l === b.labels[i]);

/**
 * Remove top-level blocks (HCL) or the corresponding JSON members (`.tf.json`). Pass the file's bytes to
 * have them checked as UTF-8 (a BOM is kept); a string is checked for lone surrogates.
 */
export async function removeBlocks(
  input: string | Uint8Array,
  targets: BlockTarget[],
  opts: RemoveBlocksOptions = {},
): Promise<RemoveBlocksResult> {
  const file = opts.file ?? "<input>";
  const text = decodeStrict(input, file);
  const unique: BlockTarget[] = [];
  for (const t of targets) if (!unique.some((u) => sameTarget(u, t))) unique.push(t);
  const syntax = opts.syntax ?? (file.toLowerCase().endsWith(".tf.json") ? "json" : "hcl");
  return syntax === "json" ? removeJsonMembers(text, unique, file) : removeHclBlocks(text, unique, file);
}

// ---- HCL -------------------------------------------------------------------------------------------

function lineStartOf(text: string, i: number): number {
  return text.lastIndexOf("\n", i - 1) + 1;
}

/** Offset just past the `\n` that ends the line holding `i` (or the end of the text). */
function lineEndOf(text: string, i: number): number {
  const nl = text.indexOf("\n", i);
  return nl === -1 ? text.length : nl + 1;
}

function lineNumberAt(text: string, i: number): number {
  let n = 1;
  for (let p = text.indexOf("\n"); p !== -1 && p < i; p = text.indexOf("\n", p + 1)) n++;
  return n;
}

const isBlank = (s: string): boolean => /^[ \t\r\n\f\v]*$/.test(s);

function decodeStrict(input: string | Uint8Array, file: string): string {
  return guards.decodeStrict(input, (reason, message) => new UnsafeEditError(file, reason, message));
}

function hclParseOrRefuse(text: string, file: string, when: "before" | "after"): Promise<Record<string, unknown>> {
  return guards.hclParseOrRefuse(text, file, when, (reason, message) => new UnsafeEditError(file, reason, message));
}

/** How many blocks with exactly these labels hcl2json's JSON holds (`{type: {l1: {l2: [ … ]}}}`). */
function hclJsonCount(parsed: Record<string, unknown>, type: string, labels: string[]): number {
  let v: unknown = parsed[type];
  for (const l of labels) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return 0;
    // Own members only: a label such as `toString` must not find Object.prototype.toString.
    v = Object.hasOwn(v, l) ? (v as Record<string, unknown>)[l] : undefined;
  }
  return Array.isArray(v) ? v.length : 0;
}

/** Every block of a type at a label depth in hcl2json's JSON. */
function hclJsonTypeTotal(parsed: Record<string, unknown>, type: string, depth: number): number {
  const walk = (v: unknown, d: number): number => {
    if (d === 0) return Array.isArray(v) ? v.length : 0;
    if (v === null || typeof v !== "object" || Array.isArray(v)) return 0;
    let n = 0;
    for (const child of Object.values(v as Record<string, unknown>)) n += walk(child, d - 1);
    return n;
  };
  return walk(parsed[type], depth);
}

/** Null when both parsers see the same blocks, else a description of the first difference. */
function inventoryMismatch(blocks: BlockSpan[], parsed: Record<string, unknown>): string | null {
  const groups = new Map<string, { t: BlockTarget; n: number }>();
  const typeDepth = new Map<string, { depth: number; n: number }>();
  for (const b of blocks) {
    const key = JSON.stringify([b.type, ...b.labels]);
    const g = groups.get(key) ?? { t: b, n: 0 };
    g.n++;
    groups.set(key, g);
    const td = typeDepth.get(b.type) ?? { depth: b.labels.length, n: 0 };
    if (td.depth !== b.labels.length) return `blocks of type ${b.type} have different numbers of labels`;
    td.n++;
    typeDepth.set(b.type, td);
  }
  for (const { t, n } of groups.values()) {
    const m = hclJsonCount(parsed, t.type, t.labels);
    if (m !== n) return `tree-sitter sees ${n} × ${describe(t)}, Terraform's parser ${m}`;
  }
  for (const [type, { depth, n }] of typeDepth) {
    const m = hclJsonTypeTotal(parsed, type, depth);
    if (m !== n) return `tree-sitter sees ${n} ${type} block(s), Terraform's parser ${m}`;
  }
  return null;
}

interface Span {
  start: number;
  end: number;
}

function widenSpan(text: string, items: TopLevelItems, block: BlockSpan, file: string): Span {
  const minStart = text.startsWith("\uFEFF") ? 1 : 0;
  let start = Math.max(lineStartOf(text, block.start), minStart);
  let end = lineEndOf(text, block.end);

  // Leading comments: each one must start its own line and end on the line directly above.
  for (;;) {
    const above = items.comments.find((c) => {
      if (c.end > start || start - c.end > 256) return false;
      if (!/^[ \t]*\r?\n$/.test(text.slice(c.end, start))) return false;
      const ls = Math.max(lineStartOf(text, c.start), minStart);
      return /^[ \t]*$/.test(text.slice(ls, c.start));
    });
    if (!above) break;
    start = Math.max(lineStartOf(text, above.start), minStart);
  }

  // One following blank line (at the end of the file, removeHclBlocks takes a preceding one instead).
  if (end < text.length) {
    const nextEnd = lineEndOf(text, end);
    if (isBlank(text.slice(end, nextEnd))) end = nextEnd;
  }

  // Nothing but this block, whole comments and whitespace may lie in the span.
  const overlaps = (s: number, e: number): boolean => s < end && e > start;
  const other = [
    ...items.blocks.filter((b) => b !== block).map((b) => ({ what: `block ${describe(b)}`, ...b })),
    ...items.others.map((o) => ({ what: o.type === "ERROR" ? "unparsed text" : o.type, ...o })),
  ].find((o) => overlaps(o.start, o.end));
  const cutComment = items.comments.find((c) => overlaps(c.start, c.end) && (c.start < start || c.end > end));
  if (other || cutComment) {
    throw new UnsafeEditError(
      file,
      "shared-line",
      `${describe(block)} (line ${block.startLine}) shares a line with ${other ? other.what : "a comment"}; ` +
        "put it on lines of its own or edit the file by hand",
    );
  }
  return { start, end };
}

function mergeSpans(spans: (Span & { idx: number })[]): (Span & { idxs: number[] })[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: (Span & { idxs: number[] })[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
      last.idxs.push(s.idx);
    } else {
      out.push({ start: s.start, end: s.end, idxs: [s.idx] });
    }
  }
  return out;
}

/**
 * The top-level items, from the fast reader when it reads the whole file (valid, and nothing but blocks,
 * white space and comments at the top level), else from tree-sitter (which the hcl2json check then backs).
 */
async function topLevelItems(text: string): Promise<TopLevelItems> {
  const blocks = wholeFileBlocksFast(text);
  return blocks ? fastTopLevelItems(text, blocks) : locateTopLevelItems(text);
}

async function removeHclBlocks(text: string, targets: BlockTarget[], file: string): Promise<RemoveBlocksResult> {
  const items = await topLevelItems(text);
  if (items.hasError) {
    throw new UnsafeEditError(file, "syntax-error", "tree-sitter found a syntax error; fix the file (terraform validate) first");
  }
  const parsed = await hclParseOrRefuse(text, file, "before");
  const mismatch = inventoryMismatch(items.blocks, parsed);
  if (mismatch) throw new UnsafeEditError(file, "parsers-disagree", `the parsers disagree about its blocks (${mismatch})`);

  const found: BlockSpan[] = [];
  for (const t of targets) {
    const hits = items.blocks.filter((b) => sameTarget(b, t));
    if (hits.length === 0) throw new UnsafeEditError(file, "target-not-found", `no ${describe(t)} block found`);
    if (hits.length > 1) {
      throw new UnsafeEditError(
        file,
        "target-ambiguous",
        `${describe(t)} is declared ${hits.length} times (lines ${hits.map((h) => h.startLine).join(", ")})`,
      );
    }
    found.push(hits[0]!);
  }

  const spans = found.map((b, idx) => ({ ...widenSpan(text, items, b, file), idx }));
  const merged = mergeSpans(spans);
  // A removal that reaches the end of the file takes one blank line before it, so that the file does not
  // end in a blank line it did not end in before.
  const tail = merged[merged.length - 1];
  const minStart = text.startsWith("\uFEFF") ? 1 : 0;
  if (tail && tail.end === text.length && tail.start > minStart) {
    const prevStart = Math.max(lineStartOf(text, tail.start - 1), minStart);
    if (isBlank(text.slice(prevStart, tail.start))) {
      tail.start = prevStart;
      const first = spans.find((s) => s.idx === tail.idxs[0])!;
      first.start = prevStart;
    }
  }
  let out = text;
  for (const m of [...merged].reverse()) out = out.slice(0, m.start) + out.slice(m.end);

  // Re-parse the result with both parsers; it must hold exactly the other blocks, in the same order.
  const expected = items.blocks.filter((b) => !found.includes(b));
  const after = await topLevelItems(out);
  const sig = (bs: BlockTarget[]): string => JSON.stringify(bs.map((b) => [b.type, ...b.labels]));
  if (after.hasError) throw new UnsafeEditError(file, "result-invalid", "the edited text would have a syntax error");
  if (sig(after.blocks) !== sig(expected)) {
    throw new UnsafeEditError(file, "result-invalid", "the edited text would not hold the expected blocks");
  }
  const parsedAfter = await hclParseOrRefuse(out, file, "after");
  const mismatchAfter = inventoryMismatch(after.blocks, parsedAfter);
  if (mismatchAfter) throw new UnsafeEditError(file, "result-invalid", `after the edit, ${mismatchAfter}`);

  const removed = found.map((b, i): RemovedBlock => {
    const s = spans[i]!;
    return {
      type: b.type,
      labels: [...b.labels],
      start: s.start,
      end: s.end,
      startLine: lineNumberAt(text, s.start),
      endLine: lineNumberAt(text, Math.max(s.start, s.end - 1)),
      blockStartLine: b.startLine,
      blockEndLine: b.endLine,
    };
  });
  return { text: out, removed };
}

// ---- JSON (.tf.json) --------------------------------------------------------------------------------

interface JsonMember {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  /** Offset just past the value. */
  end: number;
  value: JsonValue;
}

type JsonValue =
  | { kind: "object"; start: number; end: number; members: JsonMember[] }
  | { kind: "array" | "scalar"; start: number; end: number };

class JsonSyntaxError extends Error {}

/** A JSON parser that keeps the offsets of every object member (for cutting members out of the text). */
function parseJsonWithSpans(text: string): JsonValue {
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  const ws = (): void => {
    while (i < text.length && " \t\r\n".includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at offset ${i}`);
  };
  const str = (): string => {
    const start = i;
    if (text[i] !== '"') fail("expected a string");
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    if (text[i] !== '"') fail("unterminated string");
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonValue => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const members: JsonMember[] = [];
      ws();
      if (text[i] === "}") {
        i++;
        return { kind: "object", start, end: i, members };
      }
      for (;;) {
        ws();
        const mStart = i;
        const key = str();
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        const v = value();
        members.push({ key, start: mStart, end: v.end, value: v });
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return { kind: "object", start, end: i, members };
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return { kind: "array", start, end: i };
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return { kind: "array", start, end: i };
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') {
      str();
      return { kind: "scalar", start, end: i };
    }
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!m) fail("unexpected character");
    i += m![0].length;
    return { kind: "scalar", start, end: i };
  };
  const root = value();
  ws();
  if (i !== text.length) fail("trailing text");
  return root;
}

/** The range to cut so that one member leaves its object (separator and line layout handled). */
function memberCut(obj: Extract<JsonValue, { kind: "object" }>, idx: number): Span {
  const ms = obj.members;
  const m = ms[idx]!;
  // The object becomes empty: keep its braces, drop what was between them.
  if (ms.length === 1) return { start: obj.start + 1, end: obj.end - 1 };
  // From this key to the next key: removes the member, its comma, and the next key's indentation,
  // leaving this member's own indentation for the next key.
  if (idx < ms.length - 1) return { start: m.start, end: ms[idx + 1]!.start };
  // Last member: from the end of the previous value (its comma included) to the end of this one.
  return { start: ms[idx - 1]!.end, end: m.end };
}

function removeOneJson(text: string, t: BlockTarget, file: string): Span {
  let root: JsonValue;
  try {
    root = parseJsonWithSpans(text);
  } catch (e) {
    throw new UnsafeEditError(file, "syntax-error", `the file is not valid JSON (${(e as Error).message})`);
  }
  const byHand = "; edit this file by hand";
  const path = [t.type, ...t.labels];
  const chain: { obj: Extract<JsonValue, { kind: "object" }>; idx: number }[] = [];
  let cur: JsonValue = root;
  for (let d = 0; d < path.length; d++) {
    const where = path.slice(0, d).map((p) => JSON.stringify(p)).join(" → ") || "the top level";
    if (cur.kind !== "object") {
      throw new UnsafeEditError(file, "json-unsupported", `${where} is not a JSON object, a shape this tool does not edit${byHand}`);
    }
    const hits = cur.members.map((m, idx) => ({ m, idx })).filter(({ m }) => m.key === path[d]);
    if (hits.length === 0) throw new UnsafeEditError(file, "target-not-found", `no ${describe(t)} found`);
    if (hits.length > 1) {
      throw new UnsafeEditError(file, "json-unsupported", `key ${JSON.stringify(path[d])} appears ${hits.length} times in ${where}${byHand}`);
    }
    chain.push({ obj: cur, idx: hits[0]!.idx });
    cur = hits[0]!.m.value;
  }
  if (cur.kind === "array" && !t.anyValue) {
    throw new UnsafeEditError(file, "json-unsupported", `${describe(t)} is written as a JSON array of block bodies${byHand}`);
  }
  if (cur.kind !== "object" && !t.anyValue) {
    throw new UnsafeEditError(file, "json-unsupported", `${describe(t)} is not a JSON object${byHand}`);
  }
  // Climb while the member to cut is the only one in its object (and that object is not the root).
  let level = chain.length - 1;
  while (level > 0 && chain[level]!.obj.members.length === 1) level--;
  const { obj, idx } = chain[level]!;
  return memberCut(obj, idx);
}

function deleteFromParsed(value: unknown, path: string[]): void {
  const parents: Record<string, unknown>[] = [];
  let cur = value as Record<string, unknown>;
  for (const p of path.slice(0, -1)) {
    parents.push(cur);
    cur = cur[p] as Record<string, unknown>;
  }
  delete cur[path[path.length - 1]!];
  // Mirror removeOneJson's climb: drop the objects the deletion left empty (the root itself stays).
  for (let d = path.length - 2; d >= 0; d--) {
    const parent = parents[d]!;
    if (Object.keys(parent[path[d]!] as Record<string, unknown>).length > 0) break;
    delete parent[path[d]!];
  }
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

function removeJsonMembers(text: string, targets: BlockTarget[], file: string): RemoveBlocksResult {
  const body = (s: string): string => (s.startsWith("\uFEFF") ? s.slice(1) : s);
  let expected: unknown;
  try {
    expected = JSON.parse(body(text));
  } catch (e) {
    throw new UnsafeEditError(file, "syntax-error", `the file is not valid JSON (${(e as Error).message})`);
  }
  let out = text;
  const removed: RemovedBlock[] = [];
  // Cuts made so far, in offsets of the original text, sorted by start (to map later cuts back).
  const cuts: Span[] = [];
  const toOriginal = (p: number, inclusive: boolean): number => {
    let o = p;
    for (const c of cuts) if (inclusive ? c.start <= o : c.start < o) o += c.end - c.start;
    return o;
  };
  for (const t of targets) {
    const cut = removeOneJson(out, t, file);
    out = out.slice(0, cut.start) + out.slice(cut.end);
    deleteFromParsed(expected, [t.type, ...t.labels]);
    const start = toOriginal(cut.start, true);
    const end = toOriginal(cut.end, false);
    for (let k = cuts.length - 1; k >= 0; k--) if (cuts[k]!.start >= start && cuts[k]!.end <= end) cuts.splice(k, 1);
    cuts.push({ start, end });
    cuts.sort((a, b) => a.start - b.start);
    const startLine = lineNumberAt(text, start);
    const endLine = lineNumberAt(text, Math.max(start, end - 1));
    removed.push({
      type: t.type,
      labels: [...t.labels],
      start,
      end,
      startLine,
      endLine,
      blockStartLine: startLine,
      blockEndLine: endLine,
    });
  }
  let actual: unknown;
  try {
    actual = JSON.parse(body(out));
  } catch (e) {
    throw new UnsafeEditError(file, "result-invalid", `the edited text would not be valid JSON (${(e as Error).message})`);
  }
  if (!isDeepStrictEqual(actual, expected)) {
    throw new UnsafeEditError(file, "result-invalid", "the edited JSON would not equal the original minus the removed blocks");
  }
  return { text: out, removed };
}
