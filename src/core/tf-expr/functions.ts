// Terraform built-in functions over known values. Arguments arrive evaluated, except for `try` and `can`
// (see evaluate.ts), which need to catch their arguments' errors. A function with an unknown argument
// returns unknown (Terraform does the same at plan time), except `coalesce`, which can still decide when
// a known, usable argument comes before any unknown one.
import { createRequire } from "node:module";
import { asUnknown, deepEqual, EvalError, EvaluationTooCostly, firstUnknownIn, fromPlain, isKnown, isObject, isMapValue, isSetValue, markList, markMap, markSet, MAX_VALUE_SIZE, newObject, toStringValue, Unknown, type Known, type Value } from "./values.js";

/** Reads a file for `file()`; given by the Terraform layer (core does no I/O). */
export type FileReader = (path: string) => string | Unknown;

export interface FunctionContext {
  readFile: FileReader;
}

type Fn = (args: Known[], ctx: FunctionContext) => Value;

function list(v: Value, fn: string): Value[] {
  if (Array.isArray(v)) return v;
  throw new EvalError(`${fn}: expected a list, got ${v === null ? "null" : typeof v}`);
}

function map(v: Value, fn: string): { [k: string]: Value } {
  if (isObject(v)) return v;
  throw new EvalError(`${fn}: expected a map or object`);
}

function str(v: Value, fn: string): string {
  return toStringValue(v, fn);
}

function arity(args: Known[], min: number, max: number, fn: string): void {
  if (args.length < min || args.length > max) throw new EvalError(`${fn}: wrong number of arguments`);
}

/**
 * The items without repeats, first occurrences in order. Compared by a key that is equal exactly when
 * `deepEqual` is (type and value, object keys in any order): one pass, not a comparison of every pair
 * (`toset` over a YAML list of 20,000 hosts took 4 s that way).
 */
function distinct(items: Value[]): Value[] {
  const seen = new Set<string>();
  const out: Value[] = [];
  for (const x of items) {
    const k = equalityKey(x);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(x);
  }
  return out;
}

/**
 * The lists as elements of one type, as terraform converts the arguments of toset and the set functions:
 * when strings, numbers and bools mix, every one becomes a string (`1` → "1", `true` → "true").
 */
function unifyElements(lists: Value[][]): Value[][] {
  const kinds = new Set<string>();
  for (const l of lists) for (const x of l) if (x !== null) kinds.add(typeof x === "object" ? "complex" : typeof x);
  if (kinds.size < 2 || kinds.has("complex")) return lists;
  // A number and a bool convert to nothing in common (terraform: "cannot convert tuple to set of any single type").
  if (!kinds.has("string")) throw new EvalError("cannot convert the elements to a set of any single type (numbers and bools mixed)");
  return lists.map((l) => l.map((x) => (x === null ? null : toStringValue(x, "set element"))));
}

/** Strings in byte (UTF-8, code point) order, as Go compares them; JS's < compares UTF-16 units. */
function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after U+E000–U+FFFF in code point order.
    x = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
    y = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * A Terraform set of (unified) elements: no repeats, in the order cty keeps a set of strings (bytewise),
 * numbers (ascending) or bools (false first). Other element types keep their first occurrence order (cty
 * orders them by hash): the set mark tells consumers not to depend on it.
 */
function ctySet(items: Value[]): Value[] {
  const out = distinct(items);
  if (out.length > 1 && out.every((x) => typeof x === "string")) out.sort((a, b) => compareBytes(a as string, b as string));
  else if (out.length > 1 && out.every((x) => typeof x === "number")) out.sort((a, b) => (a as number) - (b as number));
  else if (out.length > 1 && out.every((x) => typeof x === "boolean")) out.sort((a, b) => Number(a) - Number(b));
  return markSet(out);
}

/** The elements of `items` also found in every list of `others` (compared by value). */
function keepIn(items: Value[], others: Value[][], keep: boolean): Value[] {
  const sets = others.map((o) => new Set(o.map(equalityKey)));
  return items.filter((x) => sets.every((set) => set.has(equalityKey(x)) === keep));
}

/** A string equal for two wholly known values exactly when deepEqual says they are equal. */
function equalityKey(v: Value): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    // NaN and the infinities (from `/`): JSON would write them as null.
    if (typeof x === "number" && !Number.isFinite(x)) return `\u0000${x}`;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return x;
    const o = x as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    // `{}` keys in sorted order; `__proto__` as an own key is kept by defineProperty.
    for (const k of Object.keys(o).sort()) Object.defineProperty(sorted, k, { value: o[k], enumerable: true, writable: true, configurable: true });
    return sorted;
  });
}

/** Into one array, in one pass over the elements (a copy per level cost the depth times the size). */
function flatten(items: Value[]): Value[] {
  const out: Value[] = [];
  const walk = (xs: Value[]): void => {
    for (const x of xs) {
      if (Array.isArray(x)) walk(x);
      else out.push(x);
    }
  };
  walk(items);
  return out;
}

/** Object keys in Terraform's order (lexical). */
function sortedKeys(o: { [k: string]: Value }): string[] {
  return Object.keys(o).sort();
}

let yaml: typeof import("yaml") | null = null;

/**
 * The YAML library costs ~40 ms of CPU to load, a fifth of a small scan's start-up, and only
 * `yamldecode` needs it: loaded (synchronously, as function calls are) on its first use.
 */
function parseYamlWithMergeKeys(text: string): unknown {
  yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yaml.parse(text, { merge: true });
}

function decodeYaml(text: string): Known {
  try {
    // YAML 1.2 core schema (`yes` stays a string, as in Terraform), with merge keys.
    return fromPlain(parseYamlWithMergeKeys(text));
  } catch (e) {
    throw new EvalError(`yamldecode: ${(e as Error).message.split("\n")[0]}`);
  }
}

function decodeJson(text: string): Known {
  try {
    return fromPlain(JSON.parse(text));
  } catch (e) {
    throw new EvalError(`jsondecode: ${(e as Error).message}`);
  }
}

const FUNCTIONS: Record<string, Fn> = {
  lookup: (a) => {
    arity(a, 2, 3, "lookup");
    const m = map(a[0]!, "lookup");
    const k = str(a[1]!, "lookup");
    if (Object.hasOwn(m, k)) return m[k]!;
    // The default takes the map's element type: a list default of a map of sets is a set.
    if (a.length === 3) return Array.isArray(a[2]) && !isSetValue(a[2]) && Object.values(m).some(isSetValue) ? markSet([...a[2]]) : a[2]!;
    throw new EvalError(`lookup: the given key ${JSON.stringify(k)} does not exist`);
  },
  merge: (a) => {
    const out = newObject();
    for (const x of a) {
      if (x === null) continue;
      const m = map(x, "merge");
      for (const k of Object.keys(m)) out[k] = m[k]!;
    }
    return out;
  },
  tomap: (a) => {
    arity(a, 1, 1, "tomap");
    const m = map(a[0]!, "tomap");
    return isMapValue(m) ? m : markMap(Object.assign(newObject(), m));
  },
  toset: (a) => {
    arity(a, 1, 1, "toset");
    return ctySet(unifyElements([list(a[0]!, "toset")])[0]!);
  },
  setunion: (a) => {
    if (a.length === 0) throw new EvalError("setunion: at least one argument is required");
    return ctySet(unifyElements(a.map((x) => list(x, "setunion"))).flat());
  },
  setintersection: (a) => {
    if (a.length === 0) throw new EvalError("setintersection: at least one argument is required");
    const [first, ...rest] = unifyElements(a.map((x) => list(x, "setintersection")));
    return ctySet(keepIn(first!, rest, true));
  },
  setsubtract: (a) => {
    arity(a, 2, 2, "setsubtract");
    const [from, minus] = unifyElements([list(a[0]!, "setsubtract"), list(a[1]!, "setsubtract")]);
    return ctySet(keepIn(from!, [minus!], false));
  },
  // A copy: a set given to tolist is a list (terraform rejects it in for_each), not the set itself.
  tolist: (a) => markList([...list(a[0]!, "tolist")]),
  distinct: (a) => markList(distinct(list(a[0]!, "distinct"))),
  compact: (a) => markList(list(a[0]!, "compact").filter((x) => x !== null && x !== "")),
  flatten: (a) => flatten(list(a[0]!, "flatten")),
  concat: (a) => a.flatMap((x) => list(x, "concat")),
  contains: (a) => {
    arity(a, 2, 2, "contains");
    return list(a[0]!, "contains").some((x) => deepEqual(x, a[1]!));
  },
  coalesce: (a) => {
    for (const x of a) if (x !== null && x !== "") return x;
    throw new EvalError("coalesce: no non-null, non-empty argument");
  },
  coalescelist: (a) => {
    for (const x of a) if (list(x, "coalescelist").length > 0) return x;
    throw new EvalError("coalescelist: no non-empty list");
  },
  // Of a map a list (`list(string)`), of an object a tuple, as terraform types them.
  keys: (a) => {
    const ks: Value[] = sortedKeys(map(a[0]!, "keys"));
    return isMapValue(a[0]!) ? markList(ks) : ks;
  },
  values: (a) => {
    const m = map(a[0]!, "values");
    const vs = sortedKeys(m).map((k) => m[k]!);
    return isMapValue(m) ? markList(vs) : vs;
  },
  length: (a) => {
    const v = a[0]!;
    if (typeof v === "string") return [...v].length;
    if (Array.isArray(v)) return v.length;
    return Object.keys(map(v, "length")).length;
  },
  element: (a) => {
    const l = list(a[0]!, "element");
    const i = a[1];
    if (typeof i !== "number" || l.length === 0) throw new EvalError("element: bad index or empty list");
    return l[((Math.floor(i) % l.length) + l.length) % l.length]!;
  },
  zipmap: (a) => {
    const ks = list(a[0]!, "zipmap");
    const vs = list(a[1]!, "zipmap");
    if (ks.length !== vs.length) throw new EvalError("zipmap: lists of different lengths");
    const out = newObject();
    ks.forEach((k, i) => (out[str(k, "zipmap")] = vs[i]!));
    return out;
  },
  setproduct: (a) => {
    if (a.length < 2) throw new EvalError("setproduct: at least two arguments are required");
    const n = a.reduce<number>((p, x) => p * Math.max(1, list(x, "setproduct").length), 1) * Math.max(1, a.length);
    if (n > MAX_VALUE_SIZE) throw new EvaluationTooCostly(`setproduct: the result would have more than ${MAX_VALUE_SIZE} elements: not evaluated offline`);
    let out: Value[][] = [[]];
    for (const x of a) out = out.flatMap((prefix) => list(x, "setproduct").map((y) => [...prefix, y]));
    // A set when an argument is a set, else a list (terraform: `setproduct(["a"], ["b"])` is a list).
    return a.some(isSetValue) ? markSet(out) : markList(out);
  },
  lower: (a) => str(a[0]!, "lower").toLowerCase(),
  upper: (a) => str(a[0]!, "upper").toUpperCase(),
  trimspace: (a) => str(a[0]!, "trimspace").trim(),
  join: (a) => list(a[1]!, "join").map((x) => str(x, "join")).join(str(a[0]!, "join")),
  split: (a) => markList(str(a[1]!, "split").split(str(a[0]!, "split"))),
  replace: (a) => {
    const [s, find, rep] = [str(a[0]!, "replace"), str(a[1]!, "replace"), str(a[2]!, "replace")];
    // `/re/` patterns are regular expressions in Terraform (RE2); only literal substrings are evaluated here.
    if (find.length > 1 && find.startsWith("/") && find.endsWith("/")) throw new EvalError("replace: regular expressions are not evaluated offline");
    return s.split(find).join(rep);
  },
  tostring: (a) => (a[0] === null ? null : str(a[0]!, "tostring")),
  tonumber: (a) => {
    const v = a[0]!;
    if (v === null || typeof v === "number") return v;
    if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
    throw new EvalError(`tonumber: cannot convert ${JSON.stringify(v)} to a number`);
  },
  tobool: (a) => {
    const v = a[0]!;
    if (v === null || typeof v === "boolean") return v;
    if (v === "true" || v === "false") return v === "true";
    throw new EvalError(`tobool: cannot convert ${JSON.stringify(v)} to bool`);
  },
  jsondecode: (a) => decodeJson(str(a[0]!, "jsondecode")),
  yamldecode: (a) => decodeYaml(str(a[0]!, "yamldecode")),
  jsonencode: (a) => JSON.stringify(a[0]),
  file: (a, ctx) => ctx.readFile(str(a[0]!, "file")),
};

/** Functions Terraform has that are not evaluated offline: their result is unknown, not an error. */
const NOT_EVALUATED = new Set([
  "templatefile", "fileexists", "fileset", "filebase64", "timestamp", "uuid", "bcrypt", "base64encode", "base64decode",
  "md5", "sha1", "sha256", "regex", "regexall", "format", "formatlist", "cidrsubnet", "cidrhost", "substr", "sort",
  "reverse", "slice", "range", "index", "one", "sum", "max", "min", "abs", "ceil", "floor", "chunklist", "transpose", "yamlencode", "startswith", "endswith", "strcontains", "title", "trim",
  "trimprefix", "trimsuffix", "alltrue", "anytrue", "nonsensitive", "sensitive", "type", "abspath", "dirname",
  "basename", "pathexpand", "uuidv5", "matchkeys", "urlencode",
]);

export function isTerraformFunction(name: string): boolean {
  return name in FUNCTIONS || NOT_EVALUATED.has(name) || name === "try" || name === "can";
}

/** Calls a function; unknown arguments give unknown. */
export function callFunction(name: string, args: Value[], ctx: FunctionContext): Value {
  const fn = FUNCTIONS[name];
  if (!fn) {
    if (NOT_EVALUATED.has(name)) return new Unknown(`${name}() is not evaluated offline`);
    throw new EvalError(`Call to unknown function; There is no function named "${name}".`);
  }
  if (name === "coalesce") {
    // The first known usable argument decides, unless an unknown one comes before it.
    for (const x of args) {
      if (!isKnown(x)) return x instanceof Unknown ? x : new Unknown(`coalesce() over a value known only after apply`);
      // Its arguments take one type: a list next to a set (or a value whose type is unknown) is a set.
      if (x !== null && x !== "") return Array.isArray(x) && !isSetValue(x) && args.some((y) => isSetValue(y) || !isKnown(y)) ? markSet([...x]) : x;
    }
  }
  for (const x of args) if (!isKnown(x)) return x instanceof Unknown ? x : new Unknown(`${name}() of a resource attribute, known only after apply`);
  // Functions that only move values around accept lists and maps with unknown elements; the others need
  // every part known (contains, toset or a string function cannot decide on an unknown element).
  if (!STRUCTURAL.has(name)) {
    for (const x of args) {
      const u = firstUnknownIn(x);
      if (u) return asUnknown(u);
    }
  }
  return fn(args as Known[], ctx);
}

const STRUCTURAL = new Set(["lookup", "merge", "tomap", "tolist", "flatten", "concat", "keys", "values", "length", "element", "zipmap", "coalesce", "coalescelist", "compact"]);
