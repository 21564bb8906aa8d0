// Parses one configuration file into the hcl2json shape (blocks as arrays of bodies, expressions as
// `${…}` text) plus its top-level block positions. Native syntax goes through @cdktn/hcl2json (HashiCorp's
// own hclsyntax, so it accepts and rejects what Terraform does); `.tf.json` through a positional JSON reader.
import type { InputError } from "../../core/model.js";
import { inputRecord, withoutPrototypes } from "../../core/null-proto.js";
import { loadHcl2Json, type HclJudge } from "../parse-pool/pool.js";
import { assembleTopLevel, fastParse, labelShapesConflict, skimsCleanly, type FastBlock } from "./fast.js";
import { parseJsonWithPositions } from "./json-positions.js";
import { scanStructure, type StructuralBlock } from "./structure.js";

export interface ParsedFile {
  /** Path as reported to the user (relative to the working directory). */
  file: string;
  body: Record<string, unknown>;
  /** Top-level blocks with their lines, in file order. */
  blocks: BlockPosition[];
  /**
   * Set by `parseConfigFileSelective` when `body` holds only the selected blocks; `blocks` still lists
   * every top-level block of the file.
   */
  partial?: boolean;
}

export interface BlockPosition {
  type: string;
  labels: string[];
  line: number;
  /** Native syntax only: the structural offsets (UTF-16). */
  structural?: StructuralBlock;
}

export type ParseOutcome = { ok: true; parsed: ParsedFile } | { ok: false; error: InputError };

/** Runs hcl2json on one text (this thread, or a worker pool). */
export type Hcl2JsonParse = (file: string, text: string) => Promise<Record<string, unknown>>;

const inThread: Hcl2JsonParse = async (file, text) => (await (await loadHcl2Json()).parse(file, text)) as Record<string, unknown>;

/**
 * HashiCorp's parser overflows its stack on nesting a few hundred to ~1,700 levels deep, and the overflow
 * leaves its Go runtime broken for every later file. No real configuration nests anywhere near this deep,
 * so a deeper text is refused here, with a position, before it reaches hcl2json.
 */
export const MAX_NESTING = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where the nesting of `{ [ (` first goes deeper than MAX_NESTING, or null. Counts inside strings too. */
export function excessiveNesting(text: string): { line: number; column: number } | null {
  return nestingScan(text, MAX_NESTING);
}

/** Any run of characters that neither opens nor closes a nesting level (sticky: from `lastIndex`). */
const NOT_A_BRACKET = /[^{}[\]()]*/y;

/**
 * Where the nesting first goes deeper than `limit`; with `limit` Infinity, where it is deepest. Every file
 * is checked before it is read, so the check jumps from bracket to bracket with a regular expression (V8 runs
 * it as native code) instead of visiting each character in JavaScript, which a short run keeps in baseline
 * code (src/cli/v8-tuning.ts): ~5 ms of the 10-file bench scan's 130 KB before, ~0.5 ms now. Lines and
 * columns are counted only for the place reported.
 */
export function nestingScan(text: string, limit: number): { line: number; column: number } | null {
  let depth = 0;
  let max = 0;
  let deepestAt = -1;
  for (let i = 0; ; i++) {
    NOT_A_BRACKET.lastIndex = i;
    NOT_A_BRACKET.test(text);
    i = NOT_A_BRACKET.lastIndex;
    if (i >= text.length) break;
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91 || c === 40) {
      if (++depth > limit) return lineAndColumn(text, i);
      if (depth > max) {
        max = depth;
        deepestAt = i;
      }
    } else if (depth > 0) depth--;
  }
  return limit === Infinity && deepestAt >= 0 ? lineAndColumn(text, deepestAt) : null;
}

/** 1-based line and column (UTF-16 units) of an offset; lines end at "\n". */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < offset; nl = text.indexOf("\n", nl + 1)) line++;
  return { line, column: offset - (text.lastIndexOf("\n", offset - 1) + 1) + 1 };
}

function nestingError(file: string, at: { line: number; column: number }): InputError {
  return {
    file,
    line: at.line,
    column: at.column,
    message: `Nesting too deep; brackets, braces and templates nest too deeply here (the limit is ${MAX_NESTING} levels) for the parser to read safely.`,
  };
}

/** Every call into hcl2json goes through this guard (this thread or the worker pool), even for a blanked block. */
function guarded(parse: Hcl2JsonParse): Hcl2JsonParse {
  return async (file, text) => {
    const deep = excessiveNesting(text);
    if (deep) {
      const e = nestingError(file, deep);
      throw new Error(`parse config: [${file}:${e.line},${e.column}-${e.column! + 1}: ${e.message}]`);
    }
    return parse(file, text);
  };
}

/** The whole file through hcl2json (every block, every value), with the structural pass for positions. */
export async function parseConfigFile(file: string, text: string, judge?: HclJudge): Promise<ParseOutcome> {
  if (file.endsWith(".json")) return parseJsonConfig(file, text);
  const deep = excessiveNesting(text);
  if (deep) return { ok: false, error: nestingError(file, deep) };
  return parseWithHcl2Json(file, text, guarded(judge ? (f, t) => judge.parse(f, t) : inThread));
}

async function parseWithHcl2Json(file: string, text: string, parse: Hcl2JsonParse): Promise<ParseOutcome> {
  let body: Record<string, unknown>;
  try {
    body = withoutPrototypes(await parse(file, text));
  } catch (e) {
    // A stack overflow inside the parser still gets a position: where the text nests deepest.
    if (/Maximum call stack size exceeded/.test(String((e as Error)?.message))) {
      return { ok: false, error: nestingError(file, nestingScan(text, Infinity) ?? { line: 1, column: 1 }) };
    }
    return { ok: false, error: hclDiagnosticToError(file, e, text) };
  }
  const structure = scanStructure(text);
  if (structure.error) {
    // hcl2json accepted what the structural pass could not follow: report it rather than guess positions.
    return { ok: false, error: { file, line: structure.error.line, column: structure.error.column, message: `cannot locate blocks: ${structure.error.message}` } };
  }
  const blocks = structure.blocks.map((b) => ({ type: b.type, labels: b.labels, line: b.line, structural: b }));
  return { ok: true, parsed: { file, body, blocks } };
}

export interface SelectiveOptions {
  /** The top-level blocks whose values are wanted; `body` holds only these. */
  select: (type: string, labels: string[]) => boolean;
  /**
   * Skim: blocks that are not selected are skipped over, not checked. Without it every block is checked,
   * and a file with a syntax error anywhere is an error, exactly as with `parseConfigFile`.
   */
  skim?: boolean;
  /** hcl2json, for what the fast reader leaves to it. Default: on this thread, loaded on first use. */
  judge?: HclJudge;
}

/**
 * Like `parseConfigFile`, but only the selected blocks are converted, and most of the file never reaches
 * hcl2json: the fast reader (./fast.ts) converts the common subset of HCL exactly as hcl2json would, and
 * hands hcl2json only what it does not recognise — one block (with the rest of the file blanked out, so
 * line and column numbers stay those of the file), or the whole file. Every syntax error it reports is
 * therefore hcl2json's own, with the same file, line and column as a full parse gives.
 */
export async function parseConfigFileSelective(file: string, text: string, opts: SelectiveOptions): Promise<ParseOutcome> {
  if (!file.endsWith(".json")) {
    // The fast reader recurses too: refuse what would overflow any recursive reader, before reading.
    const deep = excessiveNesting(text);
    if (deep) return { ok: false, error: nestingError(file, deep) };
  }
  const hcl: Hcl2JsonParse = guarded(opts.judge ? (f, t) => opts.judge!.parse(f, t) : inThread);
  // JSON syntax is read in full by the JSON reader (fast); so is a file that goes to hcl2json as a whole.
  if (file.endsWith(".json")) return parseJsonConfig(file, text);
  // Text decoded from a file is well-formed UTF-16; a lone surrogate (only a caller's string can hold one)
  // goes to hcl2json whole, whose UTF-8 round trip turns it into U+FFFD the way the full parse does.
  if (LONE_SURROGATE.test(text)) return parseWithHcl2Json(file, text, hcl);
  let fast: ReturnType<typeof fastParse>;
  try {
    fast = fastParse(text, { select: opts.select, skim: opts.skim });
  } catch (e) {
    // The fast reader recurses per nesting level; where it runs out of stack, hcl2json reads the file.
    if (e instanceof RangeError) return parseWithHcl2Json(file, text, hcl);
    throw e;
  }
  // Shapes hcl2json refuses (a block type with and without labels) fail the whole file: let it say so.
  if (!fast.ok || (!opts.skim && labelShapesConflict(fast.blocks))) return parseWithHcl2Json(file, text, hcl);
  const lines = new LineIndex(text);
  const judged = fast.blocks.filter((b) => b.needsJudge);
  if (judged.length) {
    let result: Record<string, unknown>;
    try {
      result = withoutPrototypes(await hcl(file, blankedExcept(text, judged, lines)));
    } catch (e) {
      if (/Maximum call stack size exceeded/.test(String((e as Error)?.message))) {
        return { ok: false, error: nestingError(file, nestingScan(text, Infinity) ?? { line: 1, column: 1 }) };
      }
      return { ok: false, error: hclDiagnosticToError(file, e, text) };
    }
    for (const b of judged) {
      const body = takeBody(result, b);
      // Not what we expected back: read the file the slow way rather than guess.
      if (body === undefined) return parseWithHcl2Json(file, text, hcl);
      if (opts.select(b.type, b.labels)) b.body = body;
    }
  }
  const chosen = fast.blocks.filter((b) => b.body !== null);
  const assembled = assembleTopLevel(chosen.map((b) => ({ type: b.type, labels: b.labels, body: b.body! })));
  const body = assembled === null ? null : withoutPrototypes(assembled);
  // Skimmed, shapes were not checked: hcl2json refuses these (the same type with and without labels).
  if (body === null) return parseWithHcl2Json(file, text, hcl);
  return { ok: true, parsed: { file, body, blocks: blockPositions(fast.blocks, lines), partial: true } };
}

function blockPositions(blocks: FastBlock[], lines: LineIndex): BlockPosition[] {
  return blocks.map((b) => {
    const line = lines.lineOf(b.start);
    const structural: StructuralBlock = { type: b.type, labels: b.labels, start: b.start, end: b.end, bodyStart: b.bodyStart, bodyEnd: b.bodyEnd, line, endLine: lines.lineOf(b.bodyEnd) };
    return { type: b.type, labels: b.labels, line, structural };
  });
}

/**
 * A file of a directory read only for its module calls, that cannot declare one (hcl/prefilter.ts): only its
 * top-level structure is checked, as `parseConfigFileSelective` skims it (an unclosed brace, string, heredoc or
 * comment, or a top-level item that is not a block, is an error: the selective reading then says what and
 * where, as before). Nothing of it is kept: such a directory matters to nothing but the module tree. No
 * recursive reader runs, so the nesting guard is not needed (a well-formed, deeply nested file here is not
 * refused: nothing reads it).
 */
export async function skimConfigFile(file: string, text: string, judge?: HclJudge): Promise<ParseOutcome> {
  if (!skimsCleanly(text) || LONE_SURROGATE.test(text)) return parseConfigFileSelective(file, text, { select: () => false, skim: true, ...(judge ? { judge } : {}) });
  return { ok: true, parsed: { file, body: {}, blocks: [], partial: true } };
}

/** The file's text with everything but the given blocks blanked: same lines and columns for those blocks. */
function blankedExcept(text: string, blocks: FastBlock[], lines: LineIndex): string {
  let out = "";
  let line = 1;
  for (const b of blocks) {
    const startLine = lines.lineOf(b.start);
    out += "\n".repeat(startLine - line) + " ".repeat(b.start - lines.startOf(startLine)) + text.slice(b.start, b.end) + "\n";
    line = lines.lineOf(b.end) + 1;
  }
  return out;
}

/** Takes the next body of this block's type and labels out of an hcl2json result. */
function takeBody(result: Record<string, unknown>, b: FastBlock): Record<string, unknown> | undefined {
  let level: unknown = result[b.type];
  for (const l of b.labels) {
    if (level === null || typeof level !== "object" || Array.isArray(level)) return undefined;
    level = (level as Record<string, unknown>)[l];
  }
  if (!Array.isArray(level) || level.length === 0) return undefined;
  return level.shift() as Record<string, unknown>;
}

/** 1-based line of an offset, by binary search over line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    let i = text.indexOf("\n");
    while (i !== -1) {
      this.starts.push(i + 1);
      i = text.indexOf("\n", i + 1);
    }
  }
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  startOf(line: number): number {
    return this.starts[line - 1]!;
  }
}

/** hcl2json reports `parse config: [file:line,col-col: Summary; Detail.]`, several diagnostics concatenated. */
export function hclDiagnosticToError(file: string, e: unknown, text?: string): InputError {
  const raw = String((e as Error)?.message ?? e).replace(/^parse config: /, "");
  const inner = raw.replace(/^\[/, "").replace(/\]$/, "");
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`${escaped}:(\\d+),(\\d+)(?:-\\d+(?:,\\d+)?)?: `).exec(inner);
  if (!m) return { file, line: text === undefined ? null : conversionErrorLine(text), column: null, message: oneLine(inner) };
  const rest = inner.slice(m.index + m[0].length);
  // Keep the first diagnostic's text; later ones start with the file name again.
  const next = rest.search(new RegExp(`\\s${escaped}:\\d+,\\d+`));
  return { file, line: Number(m[1]), column: Number(m[2]), message: oneLine(next === -1 ? rest : rest.slice(0, next)) };
}

/**
 * hcl2json's "convert to HCL" failure (one block type used both with and without labels) has no position:
 * point at the first block whose label count differs from the first block of its type.
 */
function conversionErrorLine(text: string): number | null {
  const first = new Map<string, number>();
  for (const b of scanStructure(text).blocks) {
    const n = first.get(b.type);
    if (n === undefined) first.set(b.type, b.labels.length);
    else if (n !== b.labels.length) return b.line;
  }
  return null;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, " ").trim();
}

function parseJsonConfig(file: string, text: string): ParseOutcome {
  const res = parseJsonWithPositions(text);
  if (!res.ok) return { ok: false, error: { file, line: res.line, column: res.column, message: res.message } };
  const root = res.value;
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    return { ok: false, error: { file, line: 1, column: 1, message: "a .tf.json file must hold a JSON object" } };
  }
  const body = inputRecord<unknown>();
  const blocks: BlockPosition[] = [];
  for (const [blockType, value] of Object.entries(root as Record<string, unknown>)) {
    if (blockType === "//") continue; // JSON syntax comment property
    const labelDepth = blockType === "resource" || blockType === "data" ? 2 : blockType === "module" || blockType === "variable" || blockType === "provider" || blockType === "output" ? 1 : 0;
    body[blockType] = normalizeJsonBlocks(value, labelDepth, [blockType], res.keyLines, blocks, blockType);
  }
  blocks.sort((a, b) => a.line - b.line);
  return { ok: true, parsed: { file, body, blocks } };
}

/**
 * JSON syntax lets every label level be an object, or an array of objects; the body level may be one
 * object or an array of them. Normalised to hcl2json's `{label: {label: [body]}}`.
 */
function normalizeJsonBlocks(
  value: unknown,
  labelsLeft: number,
  path: string[],
  keyLines: Map<string, number>,
  blocks: BlockPosition[],
  blockType: string,
): unknown {
  if (labelsLeft === 0) {
    const bodies = Array.isArray(value) ? value : [value];
    const line = keyLines.get(path.join("\u0000")) ?? 1;
    for (let i = 0; i < bodies.length; i++) blocks.push({ type: blockType, labels: path.slice(1), line });
    return bodies;
  }
  const out = inputRecord<unknown>();
  const objects = Array.isArray(value) ? value : [value];
  for (const obj of objects) {
    if (obj === null || typeof obj !== "object") continue;
    for (const [label, inner] of Object.entries(obj as Record<string, unknown>)) {
      const normalized = normalizeJsonBlocks(inner, labelsLeft - 1, [...path, label], keyLines, blocks, blockType);
      if (labelsLeft - 1 === 0) out[label] = [...((out[label] as unknown[] | undefined) ?? []), ...(normalized as unknown[])];
      else out[label] = Object.assign(inputRecord<unknown>(), out[label] as object | undefined, normalized as object);
    }
  }
  return out;
}
