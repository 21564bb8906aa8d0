// Parses one configuration file into the hcl2json shape (blocks as arrays of bodies, expressions as
// `${…}` text) plus its top-level block positions. Native syntax goes through @cdktn/hcl2json (HashiCorp's
// own hclsyntax, so it accepts and rejects what Terraform does); `.tf.json` through a positional JSON reader.
import type { InputError } from "../../core/model.js";
import { parseJsonWithPositions } from "./json-positions.js";
import { scanStructure, type StructuralBlock } from "./structure.js";

export interface ParsedFile {
  /** Path as reported to the user (relative to the working directory). */
  file: string;
  body: Record<string, unknown>;
  /** Top-level blocks with their lines, in file order. */
  blocks: BlockPosition[];
}

export interface BlockPosition {
  type: string;
  labels: string[];
  line: number;
  /** Native syntax only: the structural offsets (UTF-16). */
  structural?: StructuralBlock;
}

export type ParseOutcome = { ok: true; parsed: ParsedFile } | { ok: false; error: InputError };

type Hcl2Json = typeof import("@cdktn/hcl2json");
let hcl2json: Promise<Hcl2Json> | null = null;

/** The WASM parser instantiates at import time (~100 ms): load it once, and only when a file needs it. */
function loadHcl2Json(): Promise<Hcl2Json> {
  hcl2json ??= import("@cdktn/hcl2json");
  return hcl2json;
}

export async function parseConfigFile(file: string, text: string): Promise<ParseOutcome> {
  if (file.endsWith(".json")) return parseJsonConfig(file, text);
  const { parse } = await loadHcl2Json();
  let body: Record<string, unknown>;
  try {
    body = (await parse(file, text)) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, error: hclDiagnosticToError(file, e) };
  }
  const structure = scanStructure(text);
  if (structure.error) {
    // hcl2json accepted what the structural pass could not follow: report it rather than guess positions.
    return { ok: false, error: { file, line: structure.error.line, column: structure.error.column, message: `cannot locate blocks: ${structure.error.message}` } };
  }
  const blocks = structure.blocks.map((b) => ({ type: b.type, labels: b.labels, line: b.line, structural: b }));
  return { ok: true, parsed: { file, body, blocks } };
}

/** hcl2json reports `parse config: [file:line,col-col: Summary; Detail.]`, several diagnostics concatenated. */
export function hclDiagnosticToError(file: string, e: unknown): InputError {
  const raw = String((e as Error)?.message ?? e).replace(/^parse config: /, "");
  const inner = raw.replace(/^\[/, "").replace(/\]$/, "");
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`${escaped}:(\\d+),(\\d+)(?:-\\d+(?:,\\d+)?)?: `).exec(inner);
  if (!m) return { file, line: null, column: null, message: oneLine(inner) };
  const rest = inner.slice(m.index + m[0].length);
  // Keep the first diagnostic's text; later ones start with the file name again.
  const next = rest.search(new RegExp(`\\s${escaped}:\\d+,\\d+`));
  return { file, line: Number(m[1]), column: Number(m[2]), message: oneLine(next === -1 ? rest : rest.slice(0, next)) };
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
  const body: Record<string, unknown> = {};
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
  const out: Record<string, unknown> = {};
  const objects = Array.isArray(value) ? value : [value];
  for (const obj of objects) {
    if (obj === null || typeof obj !== "object") continue;
    for (const [label, inner] of Object.entries(obj as Record<string, unknown>)) {
      const normalized = normalizeJsonBlocks(inner, labelsLeft - 1, [...path, label], keyLines, blocks, blockType);
      if (labelsLeft - 1 === 0) out[label] = [...((out[label] as unknown[]) ?? []), ...(normalized as unknown[])];
      else out[label] = { ...((out[label] as object) ?? {}), ...(normalized as object) };
    }
  }
  return out;
}
