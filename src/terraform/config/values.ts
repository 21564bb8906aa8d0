// Reading attribute values that come either from state (plain JSON) or from config (hcl2json's shape:
// literals as JSON, expressions as `${…}` text, blocks as arrays of bodies).

import { inputRecord } from "../../core/null-proto.js";

/** `${expr}` with nothing around it: the expression text; otherwise null. */
export function expressionText(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const m = /^\$\{([\s\S]*)\}$/.exec(v);
  if (!m) return null;
  // `${a}-${b}` is a template, not one expression: only a single balanced interpolation counts.
  return balancedOnce(v) ? m[1]!.trim() : null;
}

function balancedOnce(v: string): boolean {
  let depth = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0 && i !== v.length - 1) return false;
    }
  }
  return true;
}

/** True when a config string holds an interpolation or directive, i.e. its value is only known at plan time. */
export function isTemplate(v: unknown): boolean {
  if (typeof v !== "string") return false;
  return /(^|[^$])\$\{|(^|[^%])%\{/.test(v);
}

/** A literal string (escapes `$${`/`%%{` resolved), or null for expressions, templates and non-strings. */
export function literalString(v: unknown): string | null {
  if (typeof v !== "string" || isTemplate(v)) return null;
  return v.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
}

export function literalBool(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return null;
}

export function literalNumber(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return null;
}

/** A block read from either shape: provider 3/4 blocks are arrays (take the first), provider 5 objects. */
export function firstBlock(v: unknown): Record<string, unknown> | null {
  const x = Array.isArray(v) ? v[0] : v;
  return x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
}

export interface ListResult {
  values: string[] | null;
  /** An evaluation error to report (e.g. a call to a function Terraform does not have). */
  error?: string;
}

/** Functions that turn a literal list into a set/list without changing its elements. */
const LIST_WRAPPERS = new Set(["toset", "tolist", "distinct", "compact", "sort"]);
/** Terraform's built-in function names that may legitimately appear here; anything else is an error. */
const KNOWN_FUNCTIONS = new Set([...LIST_WRAPPERS, "concat", "flatten", "setunion", "keys", "values", "lookup", "coalescelist", "split", "try", "can", "tomap", "merge"]);

/**
 * A list of strings from state (JSON array) or config (array literal, or `toset([...])`-style wrappers).
 * Anything that needs evaluation gives `values: null`; a call to an unknown function gives an error,
 * as Terraform would ("Call to unknown function"), and so does a plain string ("set of string required").
 */
export function literalStringList(v: unknown): ListResult {
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v) {
      const s = literalString(x);
      if (s === null) return { values: null };
      out.push(s);
    }
    return { values: out };
  }
  const expr = expressionText(v);
  // A string where a set or list of strings goes: terraform converts no string to a collection.
  if (expr === null && typeof v === "string") return { values: null, error: "Inappropriate value: set of string required, not a string." };
  if (expr === null) return { values: null };
  const call = /^([A-Za-z_][A-Za-z0-9_]*)\(([\s\S]*)\)$/.exec(expr);
  if (!call) return { values: null };
  const fn = call[1]!;
  if (!KNOWN_FUNCTIONS.has(fn)) return { values: null, error: `Call to unknown function; There is no function named "${fn}".` };
  if (!LIST_WRAPPERS.has(fn)) return { values: null };
  const arg = call[2]!.trim();
  if (!arg.startsWith("[")) return { values: null };
  try {
    const parsed = JSON.parse(arg.replace(/,\s*\]$/, "]")) as unknown;
    return literalStringList(parsed);
  } catch {
    return { values: null };
  }
}

/** A map of string values from state or config (`{ "100015": "disable" }`); null when not literal. */
export function literalStringMap(v: unknown): Record<string, string> | null {
  const obj = firstBlock(v) ?? (v && typeof v === "object" ? (v as Record<string, unknown>) : null);
  if (!obj) {
    const expr = expressionText(v);
    if (expr === "{}" || expr === "tomap({})") return inputRecord<string>();
    return null;
  }
  const out = inputRecord<string>();
  for (const [k, val] of Object.entries(obj)) {
    const s = literalString(val);
    if (s === null) return null;
    out[k] = s;
  }
  return out;
}
