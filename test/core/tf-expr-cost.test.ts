// Issue #17: no expression of n bytes costs the evaluator more than linear work. Each sub-expression is
// evaluated at most once per evaluation (a conditional's other result is evaluated once, for its type), and
// what would grow without bound — locals that double a list or a string, nested `for` over big lists,
// setproduct — stops at a bound as Unknown (VALUE_UNRESOLVED), which `try` does not turn into a fallback.
// Work is counted with the evaluator's step meter, never with a clock.
import { describe, expect, it } from "vitest";
import { evaluate, type Meter, type Scope } from "../../src/core/tf-expr/evaluate.js";
import { callFunction } from "../../src/core/tf-expr/functions.js";
import { parseExpression } from "../../src/core/tf-expr/parse.js";
import { MAX_EVALUATION_STEPS, Unknown, type Value } from "../../src/core/tf-expr/values.js";

/** A scope whose locals are expressions evaluated on first use and kept, as the resolver does. */
function scopeWith(vars: Record<string, Value>, locals: Record<string, string> = {}, meter?: Meter): Scope {
  const cache = new Map<string, Value>();
  const scope: Scope = {
    reference: (parts) => {
      if (parts[0] === "var") return vars[parts[1]!] ?? new Unknown(`var.${parts[1]} is not set`);
      if (parts[0] === "local" && Object.hasOwn(locals, parts[1]!)) {
        if (!cache.has(parts[1]!)) cache.set(parts[1]!, evaluate(parseExpression(locals[parts[1]!]!), scope, meter));
        return cache.get(parts[1]!)!;
      }
      return new Unknown(`${parts.join(".")} is not known`);
    },
    readFile: () => new Unknown("no files"),
  };
  return scope;
}

function steps(text: string, vars: Record<string, Value>): { steps: number; value: Value } {
  const meter: Meter = { steps: 0 };
  const value = evaluate(parseExpression(text), scopeWith(vars), meter);
  return { steps: meter.steps, value };
}

/** Nested shapes, innermost first; `e` is the expression one level down. */
const SHAPES: Record<string, (e: string, i: number) => string> = {
  "conditional, nested in the other result": (e, i) => `var.c ? ["a${i}"] : (${e})`,
  "conditional, nested in the taken result": (e, i) => `var.c ? (${e}) : ["a${i}"]`,
  "conditional in a list": (e, i) => `var.c ? [${e}] : ["a${i}"]`,
  "conditional on both sides of a comparison": (e, i) => `(var.c ? ${e} : ["a${i}"]) == ["z"] ? ["y"] : ["x"]`,
  "function calls": (e) => `concat(coalesce(${e}, []), [])`,
  "for expressions": (e) => `[for x in ${e} : x]`,
  templates: (e) => `"\${${e}}"`,
  "try and can": (e) => `try(${e}, can(var.c) ? [] : [])`,
};

describe("evaluation work is linear in the expression", () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`${name}: doubling the depth at most doubles the steps`, () => {
      const at = (depth: number, c: boolean) => {
        let e = '["z"]';
        for (let i = 0; i < depth; i++) e = shape(e, i);
        return { ...steps(e, { c }), length: e.length };
      };
      for (const c of [true, false]) {
        const small = at(40, c);
        const big = at(80, c);
        expect(big.steps).toBeLessThanOrEqual(2 * small.steps + 8);
        expect(big.steps).toBeLessThanOrEqual(big.length);
      }
    });
  }

  it("a conditional evaluates each of its results once, the untaken one for its type only", () => {
    let calls = 0;
    const scope: Scope = {
      reference: (parts) => {
        calls++;
        return parts[1] === "c" ? true : ["x"];
      },
      readFile: () => "",
    };
    // Seven references, seven calls: nothing is evaluated twice.
    const small = "var.c ? (var.c ? var.l : var.l) : (var.c ? var.l : var.l)";
    evaluate(parseExpression(small), scope);
    expect(calls).toBe(7);
  });
});

describe("runaway values stop at a bound, as Unknown", () => {
  it("locals that double a list at each step: unknown, in few steps, and try() does not hide it", () => {
    const locals: Record<string, string> = { l0: '["a", "b"]' };
    for (let i = 1; i <= 40; i++) locals[`l${i}`] = `[local.l${i - 1}, local.l${i - 1}]`;
    const meter: Meter = { steps: 0 };
    const scope = scopeWith({}, locals, meter);
    const v = evaluate(parseExpression("toset(flatten(local.l40))"), scope, meter);
    expect(v).toBeInstanceOf(Unknown);
    expect((v as Unknown).reason).toMatch(/too large to evaluate offline/);
    expect(meter.steps).toBeLessThan(1_000);
    const tried = evaluate(parseExpression('try(toset(flatten(local.l40)), ["fallback"])'), scope);
    expect(tried).toBeInstanceOf(Unknown);
  });

  it("locals that double a string: unknown, not a crash", () => {
    const locals: Record<string, string> = { s0: '"ab"' };
    for (let i = 1; i <= 40; i++) locals[`s${i}`] = `"\${local.s${i - 1}}\${local.s${i - 1}}"`;
    const v = evaluate(parseExpression("local.s40"), scopeWith({}, locals));
    expect(v).toBeInstanceOf(Unknown);
    expect((v as Unknown).reason).toMatch(/too (long|large) to evaluate offline/);
  });

  it("nested for over lists: stops after the step bound", () => {
    const meter: Meter = { steps: 0 };
    const list = `[${Array.from({ length: 200 }, (_, i) => i).join(", ")}]`;
    const v = evaluate(parseExpression(`[for a in ${list} : [for b in ${list} : [for c in ${list} : a + b + c]]]`), scopeWith({}), meter);
    expect(v).toBeInstanceOf(Unknown);
    expect((v as Unknown).reason).toMatch(/more than \d+ steps/);
    expect(meter.steps).toBeLessThanOrEqual(MAX_EVALUATION_STEPS + 1);
  });

  it("setproduct whose result would be too large is unknown", () => {
    const v = evaluate(parseExpression(`setproduct(${Array.from({ length: 30 }, () => '["a", "b"]').join(", ")})`), scopeWith({}));
    expect(v).toBeInstanceOf(Unknown);
  });
});

describe("distinct and toset compare by value in one pass", () => {
  it("equal values (object keys in any order) are one; a number and its string, or null and NaN, are not", () => {
    const ctx = { readFile: () => "" };
    const o1 = JSON.parse('{"a": 1, "b": [1, "x"]}') as Value;
    const o2 = JSON.parse('{"b": [1, "x"], "a": 1}') as Value;
    expect(callFunction("distinct", [[o1, o2, "1", 1, 1, null, Number.NaN, null]], ctx)).toEqual([o1, "1", 1, null, Number.NaN]);
    const many = Array.from({ length: 20_000 }, (_, i) => `zone${i % 10_000}.example.com`);
    expect((callFunction("toset", [many], ctx) as Value[]).length).toBe(10_000);
  });
});
