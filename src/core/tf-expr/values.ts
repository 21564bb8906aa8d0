// The values the Terraform expression evaluator works with: plain JSON-like values for what is known,
// `Unknown` for what only a plan (or state) could tell, and `ResourceReference` for a reference to a
// resource whose attributes are not known offline but whose identity is (`cloudflare_zone.z["shop"].id`).

import { inputRecord } from "../null-proto.js";

/**
 * A value known at its top level. A list or map may hold unknown elements (`{ shop = { zone_id =
 * cloudflare_zone.shop.id } }`): its keys and length are known, which is what `for_each` needs.
 */
export type Known = string | number | boolean | null | Value[] | { [key: string]: Value };
export type Value = Known | Unknown | ResourceReference;

/** A value that cannot be known offline; `reason` says why, for the finding that reports it. */
export class Unknown {
  constructor(readonly reason: string) {}
}

/**
 * A reference to a resource (or one of its instances or attributes) in the configuration. Its value is not
 * known offline, but its *identity* is: two expressions that evaluate to the same address name the same
 * thing (the zone grouping relies on this).
 */
export class ResourceReference {
  constructor(readonly address: string) {}
  attr(name: string): ResourceReference {
    return new ResourceReference(`${this.address}.${name}`);
  }
  index(key: string | number): ResourceReference {
    return new ResourceReference(`${this.address}[${typeof key === "number" ? key : JSON.stringify(key)}]`);
  }
}

/**
 * Terraform sets (`toset`, `setproduct`, a variable of a `set(...)` type) are arrays here, like lists and
 * tuples; `for_each` accepts a set of strings but rejects a list or tuple, so the arrays that are sets are
 * marked. A fresh array is never marked: a tuple literal, a `[for …]`, `yamldecode`, `keys` are not sets.
 */
const SETS = new WeakSet<Value[]>();

/** Marks an array as a Terraform set (and returns it). */
export function markSet<T extends Value[]>(items: T): T {
  SETS.add(items);
  return items;
}

/** Whether an array is a Terraform set (see markSet). */
export function isSetValue(v: Value): boolean {
  return Array.isArray(v) && SETS.has(v);
}

/**
 * Terraform lists, as told from tuples for messages only (`for_each` rejects both, saying "list of string" or
 * "tuple"): `tolist`, `split`, `compact`, `distinct`, a splat over a list or set, a `list(...)` variable.
 */
const LISTS = new WeakSet<Value[]>();

/** Marks an array as a Terraform list (and returns it). */
export function markList<T extends Value[]>(items: T): T {
  LISTS.add(items);
  return items;
}

export function isListValue(v: Value): boolean {
  return Array.isArray(v) && LISTS.has(v);
}

/**
 * Terraform maps, as told from objects: `tomap`, a `map(...)` variable. `keys` and `values` of a map are
 * lists (`list(string)`), of an object tuples; `for_each` messages name the type terraform names.
 */
const MAPS = new WeakSet<object>();

/** Marks an object as a Terraform map (and returns it). */
export function markMap<T extends { [key: string]: Value }>(o: T): T {
  MAPS.add(o);
  return o;
}

export function isMapValue(v: Value): boolean {
  return isObject(v) && MAPS.has(v);
}

/**
 * The most an evaluation may build or do (issue #17: no input costs more than linear work). A value's size
 * counts every element at every depth as written out, so `[local.a, local.a]` is twice `local.a` even though
 * it shares it (a chain of such locals doubles at each step: 40 lines would be a trillion elements), and a
 * string counts one per 16 characters. An evaluation over either bound stops with `EvaluationTooCostly`,
 * which the evaluator turns into `Unknown`: never a default, never a crash.
 */
export const MAX_VALUE_SIZE = 1 << 21;
/** Evaluation steps (expressions evaluated, elements copied) one `evaluate` may take. */
export const MAX_EVALUATION_STEPS = 1 << 22;

/**
 * A value terraform knows but this evaluator cannot tell exactly offline (a number past what a double holds
 * exactly, see numberToString). Not an `EvalError`: `try` and `can` do not catch it; `evaluate` makes it
 * `Unknown`, saying why.
 */
export class NotKnownOffline extends Error {}

/** An evaluation over the bounds above. Not an `EvalError`: `try` and `can` do not catch it. */
export class EvaluationTooCostly extends NotKnownOffline {}

const SIZES = new WeakMap<object, number>();

/**
 * The size of a value (see MAX_VALUE_SIZE), in time proportional to the parts not measured before: sizes
 * of arrays and objects are remembered, so a shared part is measured once however often it is referenced.
 */
export function valueSize(v: Value): number {
  if (typeof v === "string") return 1 + (v.length >>> 4);
  if (v === null || typeof v !== "object" || v instanceof Unknown || v instanceof ResourceReference) return 1;
  const known = SIZES.get(v);
  if (known !== undefined) return known;
  let n = 1;
  if (Array.isArray(v)) for (const x of v) n += valueSize(x);
  else for (const k of Object.keys(v)) n += 1 + (k.length >>> 4) + valueSize(v[k]!);
  SIZES.set(v, n);
  return n;
}

/** An evaluation error Terraform would report (a missing attribute, a wrong type): `try` and `can` catch it. */
export class EvalError extends Error {}

/**
 * `file(path)` of a file that cannot be read (none there, a directory, not UTF-8): terraform fails the plan
 * with it ("Invalid value for \"path\" parameter"). An `EvalError`, so `try`, `can` and a conditional's
 * result not taken pass over it as terraform does; one that reaches the top of an expression is reported
 * to the scope (`Scope.unreadable`). `path` is absolute.
 */
export class UnreadableFile extends EvalError {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export function isKnown(v: Value): v is Known {
  return !(v instanceof Unknown) && !(v instanceof ResourceReference);
}

/** The first unknown part of a value (itself, or an element at any depth); null when it is wholly known. */
export function firstUnknownIn(v: Value): Unknown | ResourceReference | null {
  if (v instanceof Unknown || v instanceof ResourceReference) return v;
  if (Array.isArray(v)) {
    for (const x of v) {
      const u = firstUnknownIn(x);
      if (u) return u;
    }
  } else if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) {
      const u = firstUnknownIn(v[k]!);
      if (u) return u;
    }
  }
  return null;
}

/** Known at every depth: nothing in it waits for a plan. */
export function isWhollyKnown(v: Value): boolean {
  return firstUnknownIn(v) === null;
}

/** An unknown part as `Unknown` (a resource reference's value is known only after apply). */
export function asUnknown(v: Unknown | ResourceReference): Unknown {
  return v instanceof Unknown ? v : new Unknown(`${v.address} is known only after apply`);
}

export function isObject(v: unknown): v is { [key: string]: Value } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Unknown) && !(v instanceof ResourceReference);
}

/** An object without a prototype, so keys such as `__proto__` or `constructor` are plain keys. */
export function newObject(): { [key: string]: Value } {
  return inputRecord() as { [key: string]: Value };
}

export function typeName(v: Value): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "list";
  if (v instanceof Unknown || v instanceof ResourceReference) return "unknown";
  return typeof v === "object" ? "object" : typeof v;
}

/** Terraform's equality: same type and same value, deeply. */
export function deepEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]!));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && deepEqual(a[k]!, b[k]!));
  }
  return false;
}

/** Terraform's conversion to string (templates, `tostring`, map keys). */
export function toStringValue(v: Value, what: string): string {
  if (typeof v === "string") return v;
  if (typeof v === "number") return numberToString(v, what);
  if (typeof v === "boolean") return v ? "true" : "false";
  throw new EvalError(`${what}: cannot convert ${typeOfKnown(v)} to string`);
}

/**
 * A number as terraform writes it (cty: the decimal digits in full, never an exponent: `1e21` is
 * `1000000000000000000000`, `1.5e-7` is `0.00000015`, `-0` is `-0`). Terraform's numbers are 512-bit
 * floats; here they are doubles, which give the same digits only up to 15 significant digits (the shortest
 * form of a double with more, e.g. `1/3` or `12345678901234567890`, is not what terraform writes):
 * past that, NotKnownOffline, never digits terraform would not write.
 */
export function numberToString(v: number, what: string): string {
  if (!Number.isFinite(v)) throw new EvalError(`${what}: cannot convert ${v} to string`);
  if (Object.is(v, -0)) return "-0";
  if (Number.isSafeInteger(v)) return String(v);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(v.toExponential());
  if (m === null) throw new NotKnownOffline(`${what}: the number ${v} is not converted to string offline`);
  const digits = m[2]! + (m[3] ?? "");
  if (digits.length > 15) {
    throw new NotKnownOffline(`${what}: the number ${v} has more significant digits than are known offline (terraform computes with 512-bit numbers): its text is not known offline`);
  }
  const point = Number(m[4]) + 1; // digits before the decimal point
  let out: string;
  if (point <= 0) out = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + "0".repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return m[1] + out;
}

function typeOfKnown(v: Value): string {
  return typeName(v);
}

/** Converts a value parsed from JSON or YAML (objects with prototypes, undefined) into a `Known`. */
export function fromPlain(v: unknown): Known {
  if (v === undefined || v === null) return null;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(fromPlain);
  if (v instanceof Map) {
    const o = newObject();
    for (const [k, x] of v) o[String(k)] = fromPlain(x);
    return o;
  }
  if (typeof v === "object") {
    const o = newObject();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = fromPlain(x);
    return o;
  }
  return null;
}
