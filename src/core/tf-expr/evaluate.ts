// Evaluates Terraform expressions (./parse.ts) over what is known offline. References are answered by a
// `Scope` the Terraform layer builds (variables through the module call chain, tfvars, locals, each/count
// of an instance, path.*, resource identities); whatever cannot be known evaluates to `Unknown` with a
// reason, never to a default. Errors Terraform would raise are `EvalError`s (caught by `try` and `can`).
import { callFunction, type FileReader } from "./functions.js";
import { parseTemplate, type Expr } from "./parse.js";
import {
  asUnknown,
  deepEqual,
  EvalError,
  EvaluationTooCostly,
  NotKnownOffline,
  firstUnknownIn,
  isKnown,
  isObject,
  isListValue,
  isSetValue,
  markList,
  markSet,
  MAX_EVALUATION_STEPS,
  MAX_VALUE_SIZE,
  newObject,
  ResourceReference,
  toStringValue,
  Unknown,
  type UnreadableFile,
  valueSize,
  type Known,
  type Value,
} from "./values.js";

export interface Scope {
  /**
   * The value of a reference: `["var", "x"]`, `["local", "x"]`, `["each", "value"]`, `["count", "index"]`,
   * `["path", "module"]`, `["data", "type", "name"]`, `["module", "name"]`, `["cloudflare_zone", "z"]`.
   */
  reference(parts: string[]): Value;
  /** May throw `UnreadableFile` (terraform fails on the file), or give `Unknown` (not read offline). */
  readFile: FileReader;
  /** Told of a `file()` whose failure reached the top of an expression (not caught by `try`/`can`). */
  unreadable?(err: UnreadableFile): void;
}

/** Roots whose reference is one step long (`var.x`); `data` takes two (`data.t.n`); others are resource types. */
const ONE_STEP = new Set(["var", "local", "each", "count", "path", "self", "terraform", "module"]);

/** Counts the work of evaluations (tests and the fuzz run check it grows linearly with the input). */
export interface Meter {
  steps: number;
}

type Env = { scope: Scope; bound: Map<string, Value>; splatItem?: Value; meter: Meter; limit: number };

/**
 * The value of an expression. An evaluation that would build more than MAX_VALUE_SIZE or take more than
 * MAX_EVALUATION_STEPS steps (hostile or runaway input: nested `for` over big lists, locals that double a
 * list or a string at each step) is `Unknown`, saying so. `meter`, when given, is charged every step.
 */
export function evaluate(e: Expr, scope: Scope, meter: Meter = { steps: 0 }): Value {
  try {
    return ev(e, { scope, bound: new Map(), meter, limit: meter.steps + MAX_EVALUATION_STEPS });
  } catch (err) {
    if (err instanceof NotKnownOffline) return new Unknown(err.message);
    // A string past the engine's length limit (a function such as replace() multiplying one).
    if (err instanceof RangeError && /string length/i.test(err.message)) return new Unknown(`the value is too large to evaluate offline (${err.message})`);
    throw err;
  }
}

/** A template string as hcl2json gives it (`pre-${var.x}`); `$${` stays a literal `${`. */
export function evaluateTemplate(text: string, scope: Scope): Value {
  return evaluate(parseTemplate(text), scope);
}

function firstUnknown(values: Value[]): Unknown | null {
  for (const v of values) {
    if (v instanceof Unknown) return v;
    if (v instanceof ResourceReference) return new Unknown(`${v.address} is known only after apply`);
  }
  return null;
}

/** Charges `n` steps of work; past the limit the evaluation stops. */
function charge(env: Env, n: number): void {
  env.meter.steps += n;
  if (env.meter.steps > env.limit) throw new EvaluationTooCostly(`the expression takes more than ${MAX_EVALUATION_STEPS} steps to evaluate: not evaluated offline`);
}

/** Every value an expression builds is measured: none larger than MAX_VALUE_SIZE goes on. */
function ev(e: Expr, env: Env): Value {
  charge(env, 1);
  const v = evaluateNode(e, env);
  if ((typeof v === "string" || (v !== null && typeof v === "object")) && valueSize(v) > MAX_VALUE_SIZE) {
    throw new EvaluationTooCostly(`the value is too large to evaluate offline (more than ${MAX_VALUE_SIZE} elements, or ${MAX_VALUE_SIZE * 16} characters, written out)`);
  }
  return v;
}

function evaluateNode(e: Expr, env: Env): Value {
  switch (e.kind) {
    case "literal":
      return e.value;
    case "unsupported":
      return new Unknown(e.why);
    case "template":
      return template(e.parts, env);
    case "tuple":
      // Elements may be unknown: the list's length is still known.
      return e.items.map((x) => ev(x, env));
    case "object": {
      const out = newObject();
      for (const item of e.items) {
        const k = ev(item.key, env);
        if (!isKnown(k)) return unknownOf(k);
        out[toStringValue(k, "object key")] = ev(item.value, env);
      }
      return out;
    }
    case "root":
    case "attr":
    case "index":
      return traversal(e, env);
    case "splatItem":
      return env.splatItem ?? null;
    case "splat": {
      const target = ev(e.target, env);
      if (target instanceof Unknown) return target;
      if (target instanceof ResourceReference) return new Unknown(`${target.address}[*] is known only after apply`);
      const items = target === null ? [] : Array.isArray(target) ? target : [target];
      const out = items.map((item) => ev(e.each, { ...env, splatItem: item }));
      // Over a list or a set the result is a list; over a tuple, a tuple.
      return isListValue(target) || isSetValue(target) ? markList(out) : out;
    }
    case "call":
      return call(e, env);
    case "unary": {
      const v = ev(e.operand, env);
      if (!isKnown(v)) return unknownOf(v);
      if (e.op === "!") return !toBool(v);
      return -toNumber(v);
    }
    case "binary":
      return binary(e.op, ev(e.left, env), ev(e.right, env));
    case "conditional": {
      const c = ev(e.cond, env);
      if (!isKnown(c)) return unknownOf(c);
      const taken = toBool(c);
      const v = taken ? ev(e.then, env) : ev(e.else, env);
      return (Array.isArray(v) && !isSetValue(v)) || isObject(v) ? unifiedWithOther(v, taken ? e.else : e.then, env) : v;
    }
    case "for":
      return forExpr(e, env);
  }
}

/**
 * Terraform gives both results of a conditional one type: `enabled ? toset(x) : []` is a set either way, and
 * so is `a` in `enabled ? { a = ["x"] } : { a = toset([]) }` (object types unify attribute by attribute).
 * A list or tuple chosen is a set (a copy) where the other result has a set, or where its type cannot be
 * told offline (unknown, or an error): that can only make a `for_each` over it accepted, never rejected.
 */
function unifiedWithOther(v: Value[] | { [key: string]: Value }, other: Expr, env: Env): Value {
  let o: Value;
  try {
    o = ev(other, env);
  } catch (err) {
    if (err instanceof NotKnownOffline) throw err;
    return unified(v, UNTYPED, env);
  }
  return unified(v, isKnown(o) ? o : UNTYPED, env);
}

/** The other result of a conditional whose type is not known offline. */
const UNTYPED = Symbol("untyped");

/** `v` with the type it takes next to `o` (see unifiedWithOther); `v` itself when nothing changes. */
function unified(v: Value, o: Value | typeof UNTYPED, env: Env): Value {
  if (Array.isArray(v)) {
    if (isSetValue(v)) return v;
    if (o === UNTYPED) {
      charge(env, v.length);
      return markSet(v.map((x) => unified(x, UNTYPED, env)));
    }
    if (!isSetValue(o)) return v;
    charge(env, v.length);
    return markSet([...v]);
  }
  if (!isObject(v) || (o !== UNTYPED && !isObject(o))) return v;
  let changed = false;
  const out = newObject();
  for (const k of Object.keys(v)) {
    charge(env, 1);
    const x = v[k]!;
    const y = o === UNTYPED ? unified(x, UNTYPED, env) : Object.hasOwn(o, k) ? unified(x, o[k]!, env) : x;
    changed ||= y !== x;
    out[k] = y;
  }
  return changed ? out : v;
}

function unknownOf(v: Unknown | ResourceReference): Unknown {
  return v instanceof Unknown ? v : new Unknown(`${v.address} is known only after apply`);
}

function template(parts: (string | Expr)[], env: Env): Value {
  // `"${x}"` alone is x itself, whatever its type (Terraform does the same).
  if (parts.length === 1 && typeof parts[0] !== "string") return ev(parts[0]!, env);
  let out = "";
  for (const p of parts) {
    if (typeof p === "string") {
      out += p;
      continue;
    }
    const v = ev(p, env);
    if (!isKnown(v)) return unknownOf(v);
    if (v === null) throw new EvalError("Invalid template interpolation value: the value is null");
    out += toStringValue(v, "template");
    if (valueSize(out) > MAX_VALUE_SIZE) throw new EvaluationTooCostly(`the template is too long to evaluate offline (more than ${MAX_VALUE_SIZE * 16} characters)`);
  }
  return out;
}

/** `a.b[c].d`: the reference part goes to the scope, the rest is applied to its value. */
function traversal(e: Expr, env: Env): Value {
  const steps: Expr[] = [];
  let base = e;
  while (base.kind === "attr" || base.kind === "index") {
    steps.unshift(base);
    base = base.target;
  }
  if (base.kind !== "root") {
    let v = ev(base, env);
    for (const s of steps) v = step(v, s, env);
    return v;
  }
  if (env.bound.has(base.name)) {
    let v: Value = env.bound.get(base.name) as Value;
    for (const s of steps) v = step(v, s, env);
    return v;
  }
  const want = ONE_STEP.has(base.name) ? 1 : base.name === "data" ? 2 : 1;
  const parts = [base.name];
  let i = 0;
  for (; i < steps.length && parts.length <= want; i++) {
    const s = steps[i]!;
    if (s.kind !== "attr") break;
    parts.push(s.name);
  }
  if (parts.length <= want) return new Unknown(`the reference ${parts.join(".")} is incomplete`);
  let v = env.scope.reference(parts);
  for (; i < steps.length; i++) v = step(v, steps[i]!, env);
  return v;
}

function step(v: Value, s: Expr, env: Env): Value {
  if (s.kind === "attr") return getAttr(v, s.name);
  if (s.kind === "index") {
    const k = ev(s.key, env);
    if (!isKnown(k)) return unknownOf(k);
    return getIndex(v, k);
  }
  throw new EvalError("invalid traversal");
}

export function getAttr(v: Value, name: string): Value {
  if (v instanceof Unknown) return v;
  if (v instanceof ResourceReference) return v.attr(name);
  if (isObject(v)) {
    if (Object.hasOwn(v, name)) return v[name]!;
    throw new EvalError(`Unsupported attribute: this object does not have an attribute named "${name}"`);
  }
  if (v === null) throw new EvalError(`Attempt to get attribute "${name}" from a null value`);
  throw new EvalError(`Unsupported attribute "${name}" on a ${Array.isArray(v) ? "list" : typeof v}`);
}

export function getIndex(v: Value, k: Known): Value {
  if (v instanceof Unknown) return v;
  if (v instanceof ResourceReference) {
    if (typeof k !== "string" && typeof k !== "number") throw new EvalError("Invalid index");
    return v.index(k);
  }
  if (Array.isArray(v)) {
    const i = typeof k === "number" ? k : typeof k === "string" && /^\d+$/.test(k) ? Number(k) : NaN;
    if (!Number.isInteger(i) || i < 0 || i >= v.length) throw new EvalError(`Invalid index: ${JSON.stringify(k)} is out of range`);
    return v[i]!;
  }
  if (isObject(v)) {
    const key = toStringValue(k, "index");
    if (Object.hasOwn(v, key)) return v[key]!;
    throw new EvalError(`Invalid index: the given key ${JSON.stringify(key)} does not exist`);
  }
  throw new EvalError(v === null ? "Attempt to index a null value" : `cannot index a ${typeof v}`);
}

function call(e: Extract<Expr, { kind: "call" }>, env: Env): Value {
  if (e.name === "try") {
    // The first argument that evaluates without an error wins; an unknown one makes the result unknown.
    for (const arg of e.args) {
      try {
        return ev(arg, env);
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
      }
    }
    throw new EvalError("try: no expression succeeded");
  }
  if (e.name === "can") {
    try {
      const v = ev(e.args[0]!, env);
      return v instanceof Unknown ? v : true;
    } catch (err) {
      if (err instanceof EvalError) return false;
      throw err;
    }
  }
  let args = e.args.map((a) => ev(a, env));
  if (e.expand) {
    const last = args[args.length - 1]!;
    if (!isKnown(last)) return unknownOf(last);
    if (!Array.isArray(last)) throw new EvalError(`${e.name}: the expanded argument is not a list`);
    args = [...args.slice(0, -1), ...last];
  }
  return callFunction(e.name, args, { readFile: env.scope.readFile });
}

function toBool(v: Known): boolean {
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  throw new EvalError(`a bool is required, got ${JSON.stringify(v)}`);
}

/**
 * Terraform's integer arithmetic is exact (512-bit numbers): `9007199254740992 + 1` is `9007199254740993`.
 * A double is exact only up to 2^53: a result of integers past that which the double rounded is not known
 * offline (never the rounded double).
 */
function exactInteger(a: number, b: number, r: number, op: "+" | "-" | "*"): number {
  if (Number.isSafeInteger(r) || !Number.isInteger(a) || !Number.isInteger(b) || !Number.isFinite(r)) return r;
  const [x, y] = [BigInt(a), BigInt(b)];
  const exact = op === "+" ? x + y : op === "-" ? x - y : x * y;
  if (exact !== BigInt(r)) throw new NotKnownOffline(`${a} ${op} ${b} is past the integers computed exactly offline (2^53)`);
  return r;
}

function toNumber(v: Known): number {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  throw new EvalError(`a number is required, got ${JSON.stringify(v)}`);
}

function binary(op: string, l: Value, r: Value): Value {
  const u = firstUnknown([l, r]) ?? (op === "==" || op === "!=" ? firstUnknownIn(l) ?? firstUnknownIn(r) : null);
  if (u) {
    // Two references to the same thing are equal even when its value is unknown.
    if ((op === "==" || op === "!=") && l instanceof ResourceReference && r instanceof ResourceReference && l.address === r.address) return op === "==";
    return asUnknown(u);
  }
  const a = l as Known;
  const b = r as Known;
  switch (op) {
    case "==":
      return deepEqual(a, b);
    case "!=":
      return !deepEqual(a, b);
    case "&&":
      return toBool(a) && toBool(b);
    case "||":
      return toBool(a) || toBool(b);
    case "+":
      return exactInteger(toNumber(a), toNumber(b), toNumber(a) + toNumber(b), op);
    case "-":
      return exactInteger(toNumber(a), toNumber(b), toNumber(a) - toNumber(b), op);
    case "*":
      return exactInteger(toNumber(a), toNumber(b), toNumber(a) * toNumber(b), op);
    case "/":
      return toNumber(a) / toNumber(b);
    case "%":
      return toNumber(a) % toNumber(b);
    case "<":
      return toNumber(a) < toNumber(b);
    case ">":
      return toNumber(a) > toNumber(b);
    case "<=":
      return toNumber(a) <= toNumber(b);
    case ">=":
      return toNumber(a) >= toNumber(b);
  }
  throw new EvalError(`unknown operator ${op}`);
}

function forExpr(e: Extract<Expr, { kind: "for" }>, env: Env): Value {
  const coll = ev(e.collection, env);
  if (!isKnown(coll)) return unknownOf(coll);
  let pairs: [Known, Value][];
  if (Array.isArray(coll)) pairs = coll.map((v, i) => [i, v]);
  else if (isObject(coll)) pairs = Object.keys(coll).sort().map((k) => [k, coll[k]!]);
  else throw new EvalError("for: the collection is not a list, set, map or object");

  const listOut: Value[] = [];
  const mapOut = newObject();
  const groups = new Map<string, Value[]>();
  for (const [k, v] of pairs) {
    const bound = new Map(env.bound);
    if (e.keyVar) bound.set(e.keyVar, k);
    bound.set(e.valueVar, v);
    const inner: Env = { ...env, bound };
    if (e.cond) {
      const c = ev(e.cond, inner);
      if (!isKnown(c)) return unknownOf(c);
      if (!toBool(c)) continue;
    }
    const value = ev(e.valueExpr, inner);
    if (e.keyExpr === null) {
      listOut.push(value);
      continue;
    }
    const key = ev(e.keyExpr, inner);
    if (!isKnown(key)) return unknownOf(key);
    const ks = toStringValue(key, "for key");
    if (e.grouping) {
      const g = groups.get(ks) ?? [];
      g.push(value);
      groups.set(ks, g);
    } else {
      if (Object.hasOwn(mapOut, ks)) throw new EvalError(`Duplicate object key ${JSON.stringify(ks)} in for expression (use ... to group)`);
      mapOut[ks] = value;
    }
  }
  if (e.keyExpr === null) return listOut;
  if (e.grouping) for (const [k, g] of groups) mapOut[k] = g;
  return mapOut;
}
