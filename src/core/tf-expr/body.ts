// Evaluates a resource body in hcl2json's shape (literals as JSON, expressions and templates as `${…}`
// text, blocks as arrays of bodies) as far as it is known offline. Known values replace their expressions
// (in the same shape: a string that holds `${` is written back escaped as `$${`); an expression that is not
// known keeps its text and is listed in `unresolved` with its attribute path and the reason.
import { ExprSyntaxError, parseTemplate, type Expr } from "./parse.js";
import { evaluate, type Scope } from "./evaluate.js";
import { EvalError, firstUnknownIn, isKnown, ResourceReference, Unknown, UnreadableFile, type Value } from "./values.js";
import { inputRecord } from "../null-proto.js";

export interface UnresolvedAttribute {
  /** Attribute path, blocks included: `sensitivity`, `actions.disable_security`. */
  attribute: string;
  /** The expression as written (without the `${…}` wrapper when it is one expression). */
  expression: string;
  /** Why it is not known: `var.x is not set …`, an evaluation error, `data source …`. */
  reason: string;
}

export interface ResolvedBody {
  attributes: Record<string, unknown>;
  unresolved: UnresolvedAttribute[];
  /** Attributes whose value is a reference to a resource (`zone_id = cloudflare_zone.z["a"].id`): its address. */
  references: Record<string, string>;
}

/** True for a string hcl2json produced from an expression or a template with an interpolation or directive. */
export function holdsExpression(v: unknown): boolean {
  return typeof v === "string" && /(^|[^$])\$\{|(^|[^%])%\{/.test(v);
}

/** The value of one hcl2json string (`${expr}`, `text ${x}`, or a literal with `$${` escapes). */
export function evaluateConfigString(v: string, scope: Scope): Value {
  if (!holdsExpression(v)) return v.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
  return evaluate(parsedTemplate(v), scope);
}

/**
 * The same expression text is evaluated once per instance (`for_each` over hundreds of zones, a module
 * called per zone): it is parsed once. Parsed expressions are never changed by evaluation. Bounded: the
 * cache starts over when full, so a tree of all-different expressions costs no more memory than this.
 */
const PARSED = new Map<string, Expr | ExprSyntaxError>();
const PARSED_MAX = 4096;

function parsedTemplate(v: string): Expr {
  let e = PARSED.get(v);
  if (e === undefined) {
    try {
      e = parseTemplate(v);
    } catch (err) {
      if (!(err instanceof ExprSyntaxError)) throw err;
      e = err;
    }
    if (PARSED.size >= PARSED_MAX) PARSED.clear();
    PARSED.set(v, e);
  }
  if (e instanceof ExprSyntaxError) throw e;
  return e;
}

/**
 * The value of one hcl2json value, wholly: Unknown when any part is unknown (a composite with an unknown
 * element is unknown as a whole). Errors Terraform would raise become `Unknown` with the error as reason.
 */
export function evaluateConfigValue(v: unknown, scope: Scope): Value {
  try {
    return evaluateStrict(v, scope);
  } catch (e) {
    if (e instanceof UnreadableFile) scope.unreadable?.(e);
    if (e instanceof EvalError || e instanceof ExprSyntaxError) return new Unknown(e.message);
    throw e;
  }
}

function evaluateStrict(v: unknown, scope: Scope): Value {
  if (typeof v === "string") return evaluateConfigString(v, scope);
  // Lists and maps keep unknown elements: their keys and length stay known (for_each needs only those).
  if (Array.isArray(v)) return v.map((x) => evaluateStrict(x, scope));
  if (v !== null && typeof v === "object") {
    const out: Record<string, Value> = inputRecord();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const key = evaluateConfigString(k, scope);
      if (!isKnown(key)) return key;
      out[String(key)] = evaluateStrict(x, scope);
    }
    return out;
  }
  return (v ?? null) as Value;
}

/** Back into hcl2json's shape (of a wholly known value): strings that hold `${`/`%{` are escaped. */
function toConfigShape(v: Value): unknown {
  if (typeof v === "string") return v.replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{");
  if (Array.isArray(v)) return v.map(toConfigShape);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = inputRecord();
    for (const [k, x] of Object.entries(v)) out[k] = toConfigShape(x);
    return out;
  }
  return v;
}

/** Partially evaluates a body: known values in place, unknown expressions kept and listed. */
export function resolveBody(body: Record<string, unknown>, scope: Scope, skip: ReadonlySet<string> = new Set()): ResolvedBody {
  const unresolved: UnresolvedAttribute[] = [];
  const references: Record<string, string> = inputRecord();
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === "string") {
      if (!holdsExpression(v)) return v;
      const value = evaluateConfigValue(v, scope);
      const unknownPart = firstUnknownIn(value);
      if (unknownPart === null) return toConfigShape(value);
      if (value instanceof ResourceReference) references[path] = value.address;
      const reason = unknownPart instanceof ResourceReference ? `${unknownPart.address} is known only after apply` : unknownPart.reason;
      unresolved.push({ attribute: path, expression: expressionSource(v), reason });
      return v;
    }
    if (Array.isArray(v)) {
      // Blocks are arrays of bodies: their attributes keep the block's name in the path, without an index.
      const out = v.map((x, i) => walk(x, x !== null && typeof x === "object" && !Array.isArray(x) ? path : `${path}[${i}]`));
      return out.some((x, i) => x !== v[i]) ? out : v;
    }
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = inputRecord();
      let changed = false;
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const y = walk(x, path ? `${path}.${k}` : k);
        out[k] = y;
        changed ||= y !== x;
      }
      return changed ? out : v;
    }
    return v;
  };
  const attributes: Record<string, unknown> = inputRecord();
  let changed = false;
  for (const [k, v] of Object.entries(body)) {
    const value = skip.has(k) ? v : walk(v, k);
    attributes[k] = value;
    changed ||= value !== v;
  }
  // What holds no expression is the configuration's own value, shared rather than copied: in a big tree
  // most bodies are literal, and a copy of each doubled the inventory's heap. Bodies are never changed
  // after parsing.
  return { attributes: changed ? attributes : body, unresolved, references };
}

/** `${lookup(each.value, "x", null)}` → `lookup(each.value, "x", null)`; a template stays as written. */
export function expressionSource(v: string): string {
  const m = /^\$\{([\s\S]*)\}$/.exec(v);
  if (!m) return v;
  try {
    const t = parseTemplate(v);
    if (t.kind === "template" && t.parts.length === 1 && typeof t.parts[0] !== "string") return m[1]!.trim();
  } catch {
    // not one expression: keep the text
  }
  return v;
}
