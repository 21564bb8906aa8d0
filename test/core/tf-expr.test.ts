// The Terraform expression evaluator: every construct and function it supports, what stays unknown, and
// which errors `try`/`can` catch.
import { describe, expect, it } from "vitest";
import { evaluateConfigValue, expressionSource, resolveBody } from "../../src/core/tf-expr/body.js";
import { evaluate, type Scope } from "../../src/core/tf-expr/evaluate.js";
import { ExprSyntaxError, parseExpression } from "../../src/core/tf-expr/parse.js";
import { EvalError, isListValue, isSetValue, ResourceReference, Unknown, type Value } from "../../src/core/tf-expr/values.js";

const FILES: Record<string, string> = {
  "/m/zones.yml": "shop:\n  zone: shop.example.com\n  sensitivity: medium\n  bypass:\n    - products: [waf, rateLimit]\n  enabled: yes\nblog:\n  zone: blog.example.com\n  sensitivity: null\n",
  "/m/rules.json": '{"a": {"action": "bypass", "products": ["waf"]}, "n": 1.5}',
};

function scope(vars: Record<string, Value> = {}, extra: Record<string, Value> = {}): Scope {
  return {
    reference: (parts) => {
      const key = parts.join(".");
      if (parts[0] === "var") return Object.hasOwn(vars, parts[1]!) ? vars[parts[1]!]! : new Unknown(`${key} is not set`);
      if (Object.hasOwn(extra, key)) return extra[key]!;
      if (parts[0] === "path") return "/m";
      if (parts[0] === "data") return new Unknown(`${key} is read at plan time`);
      if (["local", "each", "count", "module", "self", "terraform"].includes(parts[0]!)) return new Unknown(`${key} is not known`);
      return new ResourceReference(key);
    },
    readFile: (p) => (Object.hasOwn(FILES, p) ? FILES[p]! : new Unknown(`file("${p}") cannot be read`)),
  };
}

const ev = (src: string, vars: Record<string, Value> = {}, extra: Record<string, Value> = {}): Value => evaluate(parseExpression(src), scope(vars, extra));

describe("parse and evaluate", () => {
  it("literals, arithmetic with HCL precedence, comparisons, logic and conditionals", () => {
    expect(ev('"a"')).toBe("a");
    expect(ev("1 + 2 * 3")).toBe(7);
    expect(ev("(1 + 2) * 3 - -1")).toBe(10);
    expect(ev("7 % 4 == 3 && !false")).toBe(true);
    expect(ev("2 >= 3 || 1 < 2")).toBe(true);
    expect(ev('var.env == "prod" ? 1 : 0', { env: "prod" })).toBe(1);
    expect(ev('var.on ? "x" : "y"', { on: "false" })).toBe("y");
    expect(ev("null")).toBeNull();
  });

  it("templates: interpolation, the $${ escape, and a lone interpolation keeps its type", () => {
    expect(ev('"${var.a}-${var.b}"', { a: "x", b: 2 })).toBe("x-2");
    expect(ev('"$${literal}"')).toBe("${literal}");
    expect(ev('"${var.l}"', { l: ["a"] })).toEqual(["a"]);
    expect(ev('"tab\\there"')).toBe("tab\there");
  });

  it("tuples, objects (bare and expression keys), traversals, indexes and splats", () => {
    expect(ev('{ a = 1, "b-c" = [true, "x"], (var.k) = 2 }', { k: "kk" })).toEqual({ a: 1, "b-c": [true, "x"], kk: 2 });
    expect(ev("var.m.a[1].b", { m: { a: [{ b: 1 }, { b: 2 }] } })).toBe(2);
    expect(ev('var.m["a"][0]', { m: { a: ["z"] } })).toBe("z");
    expect(ev("var.l[*].id", { l: [{ id: "1" }, { id: "2" }] })).toEqual(["1", "2"]);
    expect(ev("var.l.*.id", { l: [{ id: "1" }] })).toEqual(["1"]);
    expect(ev("var.l.0", { l: ["first"] })).toBe("first");
  });

  it("for expressions over lists and maps, with filters and grouping", () => {
    const m = { b: { on: true, z: "2" }, a: { on: false, z: "1" }, c: { on: true, z: "2" } };
    expect(ev("[for k, v in var.m : k if v.on]", { m })).toEqual(["b", "c"]);
    expect(ev("{ for k, v in var.m : k => v.z }", { m })).toEqual({ a: "1", b: "2", c: "2" });
    expect(ev("{ for k, v in var.m : v.z => k... }", { m })).toEqual({ "1": ["a"], "2": ["b", "c"] });
    expect(ev("[for i, x in var.l : i * x]", { l: [3, 4] })).toEqual([0, 4]);
    expect(() => ev("{ for k, v in var.m : v.z => k }", { m })).toThrow(EvalError);
  });

  it("unknown values propagate and say why; a conditional on an unknown is unknown", () => {
    const u = ev('var.missing == "x" ? 1 : 0');
    expect(u).toBeInstanceOf(Unknown);
    expect((u as Unknown).reason).toBe("var.missing is not set");
    expect(ev("data.cloudflare_zones.all.zones[0].id")).toBeInstanceOf(Unknown);
    expect(ev('"${var.missing}-x"')).toBeInstanceOf(Unknown);
    // A list or map with an unknown element still has known keys and length (what for_each needs).
    const list = ev("[var.missing, 1]") as Value[];
    expect(list[0]).toBeInstanceOf(Unknown);
    expect(ev("length([var.missing, 1])")).toBe(2);
    expect(ev("keys({ a = var.missing })")).toEqual(["a"]);
    expect(ev('contains([var.missing], "x")')).toBeInstanceOf(Unknown);
    expect(ev("[var.missing] == [1]")).toBeInstanceOf(Unknown);
    expect((ev("{ for k, v in { a = var.missing } : k => v }") as Record<string, Value>).a).toBeInstanceOf(Unknown);
  });

  it("resource references keep their identity through keys and attributes", () => {
    const r = ev("cloudflare_zone.z[var.k].id", { k: "shop" });
    expect(r).toBeInstanceOf(ResourceReference);
    expect((r as ResourceReference).address).toBe('cloudflare_zone.z["shop"].id');
    expect((ev("cloudflare_zone.z[0].id") as ResourceReference).address).toBe("cloudflare_zone.z[0].id");
    expect(ev("cloudflare_zone.a.id == cloudflare_zone.a.id")).toBe(true);
  });

  it("rejects what is not an expression, with a syntax error", () => {
    expect(() => parseExpression("1 +")).toThrow(ExprSyntaxError);
    expect(() => parseExpression("var.x )")).toThrow(ExprSyntaxError);
    expect(() => parseExpression('"open')).toThrow(ExprSyntaxError);
  });
});

describe("functions", () => {
  it("lookup: present key, default, and an error without a default", () => {
    const v = { a: { disable_security: true } };
    expect(ev('lookup(var.m.a, "disable_security", null)', { m: v })).toBe(true);
    expect(ev('lookup(var.m.a, "waf", null)', { m: v })).toBeNull();
    expect(() => ev('lookup(var.m.a, "waf")', { m: v })).toThrow(EvalError);
    expect(ev('lookup(var.missing, "waf", null)')).toBeInstanceOf(Unknown);
  });

  it("try and can catch errors, not unknowns", () => {
    expect(ev("try(var.m.x, var.m.y, \"z\")", { m: { y: "y" } })).toBe("y");
    expect(ev("try(var.m.x, null)", { m: {} })).toBeNull();
    expect(ev("try(var.missing, 1)")).toBeInstanceOf(Unknown);
    expect(ev("can(var.m.x)", { m: {} })).toBe(false);
    expect(ev("can(var.m.x)", { m: { x: 1 } })).toBe(true);
    expect(() => ev("try(var.m.x)", { m: {} })).toThrow(EvalError);
  });

  it("merge, tomap, toset, tolist, flatten, concat, contains, keys, values, length, distinct, compact", () => {
    expect(ev("merge(var.a, var.b, null)", { a: { x: 1, y: 1 }, b: { y: 2 } })).toEqual({ x: 1, y: 2 });
    expect(ev("tomap({ a = 1 })")).toEqual({ a: 1 });
    expect(ev('toset(["waf", "waf", "uaBlock"])')).toEqual(["uaBlock", "waf"]);
    expect(ev("tolist([1])")).toEqual([1]);
    expect(ev("flatten([[1, [2]], 3, []])")).toEqual([1, 2, 3]);
    expect(ev("concat([1], [2, 3])")).toEqual([1, 2, 3]);
    expect(ev('contains(["waf"], "waf")')).toBe(true);
    expect(ev('contains(["waf"], "rateLimit")')).toBe(false);
    expect(ev("keys({ b = 1, a = 2 })")).toEqual(["a", "b"]);
    expect(ev("values({ b = 1, a = 2 })")).toEqual([2, 1]);
    expect(ev('length("héllo")')).toBe(5);
    expect(ev("length({ a = 1 })")).toBe(1);
    expect(ev('distinct(["a", "a"])')).toEqual(["a"]);
    expect(ev('compact(["a", "", null])')).toEqual(["a"]);
  });

  it("coalesce: the first non-null, non-empty value; unknown when an unknown comes first", () => {
    expect(ev('coalesce(null, "", "x", "y")')).toBe("x");
    expect(ev('coalesce("x", var.missing)')).toBe("x");
    expect(ev('coalesce(var.missing, "x")')).toBeInstanceOf(Unknown);
    expect(() => ev("coalesce(null, \"\")")).toThrow(EvalError);
  });

  it("strings and conversions", () => {
    expect(ev('lower("WAF")')).toBe("waf");
    expect(ev('upper("waf")')).toBe("WAF");
    expect(ev('join(",", ["a", "b"])')).toBe("a,b");
    expect(ev('split(",", "a,b")')).toEqual(["a", "b"]);
    expect(ev('replace("a-b", "-", "_")')).toBe("a_b");
    expect(ev('tostring(1)')).toBe("1");
    expect(ev('tonumber("2")')).toBe(2);
    expect(ev('tobool("true")')).toBe(true);
    expect(ev('trimspace("  x ")')).toBe("x");
    expect(ev('zipmap(["a"], [1])')).toEqual({ a: 1 });
    expect(ev('setproduct(["a", "b"], [1])')).toEqual([["a", 1], ["b", 1]]);
    expect(ev('element(["a", "b"], 3)')).toBe("b");
  });

  it("yamldecode(file()) with Terraform's YAML semantics: maps, lists, strings, numbers, bools, null", () => {
    const v = ev('yamldecode(file("${path.module}/zones.yml"))') as Record<string, Record<string, unknown>>;
    expect(v.shop).toEqual({ zone: "shop.example.com", sensitivity: "medium", bypass: [{ products: ["waf", "rateLimit"] }], enabled: "yes" });
    expect(v.blog!.sensitivity).toBeNull();
    expect(ev('yamldecode("a: 1\\nb: true\\nc: 1.5")')).toEqual({ a: 1, b: true, c: 1.5 });
    expect(() => ev('yamldecode("a: [")')).toThrow(EvalError);
  });

  it("jsondecode(file()), and a file that cannot be read is unknown", () => {
    expect(ev('jsondecode(file("/m/rules.json")).a.products')).toEqual(["waf"]);
    expect(ev('jsondecode(file("/m/rules.json")).n')).toBe(1.5);
    expect(ev('yamldecode(file("/m/missing.yml"))')).toBeInstanceOf(Unknown);
    expect(() => ev('jsondecode("{")')).toThrow(EvalError);
  });

  it("a function Terraform lacks is an error; one not evaluated offline is unknown", () => {
    expect(() => ev('set("waf")')).toThrow(/no function named "set"/);
    expect(ev('templatefile("x.tpl", {})')).toBeInstanceOf(Unknown);
  });

  it("keys such as __proto__ are plain keys", () => {
    const v = ev('jsondecode("{\\"__proto__\\": {\\"x\\": 1}}")') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(ev('merge({}, jsondecode("{\\"__proto__\\": 1}"))["__proto__"]')).toBe(1);
  });
});

describe("hcl2json bodies", () => {
  it("known values replace their expressions; unknown ones keep their text and are listed with the reason", () => {
    const body = {
      zone_id: "${cloudflare_zone.z[each.key].id}",
      sensitivity: "${var.sensitivity}",
      action_mode: "${var.mode}",
      description: "literal $${not} evaluated",
      actions: [{ disable_security: '${lookup(var.pr, "disable_security", null)}', waf: '${lookup(var.pr, "waf", null)}' }],
    };
    const r = resolveBody(body, scope({ sensitivity: "off", pr: { disable_security: true } }, { "each.key": "shop" }));
    expect(r.attributes.sensitivity).toBe("off");
    expect(r.attributes.description).toBe("literal $${not} evaluated");
    expect(r.attributes.actions).toEqual([{ disable_security: true, waf: null }]);
    expect(r.attributes.action_mode).toBe("${var.mode}");
    expect(r.references.zone_id).toBe('cloudflare_zone.z["shop"].id');
    expect(r.unresolved.map((u) => [u.attribute, u.expression, u.reason])).toEqual([
      ["zone_id", 'cloudflare_zone.z[each.key].id', 'cloudflare_zone.z["shop"].id is known only after apply'],
      ["action_mode", "var.mode", "var.mode is not set"],
    ]);
  });

  it("a known string holding ${ is written back escaped, so it still reads as a literal", () => {
    const r = resolveBody({ expression: "${var.e}" }, scope({ e: 'http.host eq "${x}"' }));
    expect(r.attributes.expression).toBe('http.host eq "$${x}"');
  });

  it("what holds no expression is shared with the configuration, not copied; what changed is new", () => {
    const literal = { rule_id: "100000", mode: "block", scope: [{ paths: ["/a"] }] };
    expect(resolveBody(literal, scope()).attributes).toBe(literal);
    const body = { zone_id: "${var.zone}", actions: [{ waf: "off" }], target: [{ url: "${var.url}" }] };
    const r = resolveBody(body, scope({ zone: "z1", url: "u" }));
    expect(r.attributes).not.toBe(body);
    expect(r.attributes.actions).toBe(body.actions);
    expect(r.attributes.target).toEqual([{ url: "u" }]);
    expect(body.target).toEqual([{ url: "${var.url}" }]);
    expect(r.attributes.zone_id).toBe("z1");
  });

  it("an expression parsed once evaluates per scope; a syntax error stays an error every time; past the cache bound too", () => {
    expect(evaluateConfigValue("${var.zone}-x", scope({ zone: "a" }))).toBe("a-x");
    expect(evaluateConfigValue("${var.zone}-x", scope({ zone: "b" }))).toBe("b-x");
    for (let i = 0; i < 2; i++) {
      const v = evaluateConfigValue("${var.zone +}", scope({ zone: "a" }));
      expect(v).toBeInstanceOf(Unknown);
      expect((v as Unknown).reason).toMatch(/./);
    }
    for (let i = 0; i < 5000; i++) expect(evaluateConfigValue(`\${var.n}-${i}`, scope({ n: "k" }))).toBe(`k-${i}`);
    expect(evaluateConfigValue("${var.zone}-x", scope({ zone: "c" }))).toBe("c-x");
  });

  it("an evaluation error is unknown with the error as its reason", () => {
    const v = evaluateConfigValue("${var.m.missing}", scope({ m: {} }));
    expect(v).toBeInstanceOf(Unknown);
    expect((v as Unknown).reason).toMatch(/does not have an attribute named "missing"/);
  });

  it("expressionSource unwraps one expression and keeps templates", () => {
    expect(expressionSource("${var.x}")).toBe("var.x");
    expect(expressionSource("${a}-${b}")).toBe("${a}-${b}");
  });
});

describe("sets stay sets through the evaluator's copies, and only there", () => {
  const isSet = (src: string, vars: Record<string, Value> = {}): boolean => {
    const extra: Record<string, Value> = {
      "local.hosts": evaluate(parseExpression('toset(["a", "b"])'), scope()),
      "local.by_env": evaluate(parseExpression('{ prod = toset(["p"]) }'), scope()),
      "local.cfg": evaluate(parseExpression('{ a = { hosts = toset(["h"]) } }'), scope()),
    };
    const v = ev(src, vars, extra);
    expect(Array.isArray(v)).toBe(true);
    return isSetValue(v);
  };

  it("kept: conditionals (either result, nested objects), try, lookup and its default, coalesce, element, values, merge, attributes and indexes", () => {
    for (const src of [
      "var.on ? local.hosts : []",
      "var.on ? [] : local.hosts",
      "!var.on ? [] : local.hosts",
      'var.on ? ["x"] : var.unset',
      '(var.on ? { a = ["x"] } : { a = toset([]) }).a',
      '(var.on ? { a = { hosts = ["x"] } } : local.cfg).a.hosts',
      'try(local.hosts, ["fallback"])',
      'lookup(local.by_env, "prod", [])',
      'lookup(local.by_env, "staging", [])',
      "coalesce([], local.hosts)",
      "coalescelist(local.hosts, [])",
      "element([local.hosts], 0)",
      "values(local.by_env)[0]",
      'merge(local.by_env, { x = 1 })["prod"]',
      "local.cfg.a.hosts",
      '"${local.hosts}"',
      'setproduct(local.hosts, ["b"])',
      'setproduct(["b"], local.hosts)',
    ]) {
      expect(isSet(src, { on: true }), src).toBe(true);
    }
  });

  it("dropped where terraform makes a list or tuple: tolist, for, splat, concat, flatten, distinct, compact, a tuple other result", () => {
    for (const src of [
      "tolist(local.hosts)",
      "[for h in local.hosts : h]",
      "local.hosts[*]",
      "concat(local.hosts)",
      "flatten([local.hosts])",
      "distinct(local.hosts)",
      "compact(local.hosts)",
      'var.on ? ["x"] : ["y"]',
      '(var.on ? { a = ["x"] } : { a = ["y"] }).a',
      '(var.on ? { a = ["x"] } : { b = toset([]) }).a',
      // terraform 1.11: type(setproduct(["a"], ["b"])) is list(tuple([string, string])).
      'setproduct(["a"], ["b"])',
    ]) {
      expect(isSet(src, { on: true }), src).toBe(false);
    }
  });
});

describe("toset and the set functions, as terraform 1.11 gives them", () => {
  // Each expected value is what `terraform plan` printed for the same expression (outputs, no provider).
  const cases: [string, Value][] = [
    ['setunion(["b", "a"], ["c", "a"], ["10", "9"])', ["10", "9", "a", "b", "c"]],
    ['setunion(["b"], [1, 2])', ["1", "2", "b"]],
    ['setunion(["b"], [1, 10, 2])', ["1", "10", "2", "b"]],
    ["setunion([10, 9, 1.5], [2])", [1.5, 2, 9, 10]],
    ["setunion([true, false], [])", [false, true]],
    ['setsubtract(["b", "a", "c"], ["a"])', ["b", "c"]],
    ['setsubtract([3, 1, 2], ["1"])', ["2", "3"]],
    ['setintersection(["b", "a", "c"], ["c", "b"])', ["b", "c"]],
    ['setintersection(["1", "2"], [1, 2, 3])', ["1", "2"]],
    ['toset(["1", 1])', ["1"]],
    ['toset([10, "x", true])', ["10", "true", "x"]],
    ['toset(["\\uE000", "\\U0001F600", "b", "a"])', ["a", "b", "\uE000", "\u{1F600}"]],
  ];
  for (const [src, want] of cases) {
    it(src, () => {
      const v = ev(src);
      expect(v).toEqual(want);
      expect(isSetValue(v)).toBe(true);
    });
  }

  it("sets of other elements: no repeats, marked a set (cty orders them by hash: nothing may depend on the order)", () => {
    const v = ev('setunion([["b"], ["a"]], [["a"]])');
    expect(v).toHaveLength(2);
    expect(v).toEqual(expect.arrayContaining([["a"], ["b"]]));
    expect(isSetValue(v)).toBe(true);
  });

  it("errors as terraform's: numbers with bools, no argument, not a list; unknown arguments stay unknown", () => {
    expect(() => ev("toset([10, true])")).toThrow(EvalError);
    expect(() => ev("setunion()")).toThrow(EvalError);
    expect(() => ev('setsubtract("a", [])')).toThrow(EvalError);
    expect(ev('setunion(var.unset, ["a"])')).toBeInstanceOf(Unknown);
    expect(ev('setintersection(["a"], [var.unset])')).toBeInstanceOf(Unknown);
  });
});

describe("types and number text as terraform 1.11 gives them (terraform console, no provider)", () => {
  it("keys and values of a map are lists, of an object tuples; setproduct is a list unless an argument is a set", () => {
    // type(keys(tomap({a=1}))) = list(string); type(keys({a=1})) = tuple([string]).
    const isList = (src: string): boolean => {
      const v = ev(src);
      expect(Array.isArray(v), src).toBe(true);
      return isListValue(v) && !isSetValue(v);
    };
    expect(isList("keys(tomap({ a = 1 }))")).toBe(true);
    expect(isList("values(tomap({ a = 1 }))")).toBe(true);
    expect(isList("keys({ a = 1 })")).toBe(false);
    expect(isList("values({ a = 1 })")).toBe(false);
    expect(isList('setproduct(["a", "b"], ["c"])')).toBe(true);
    expect(ev('setproduct(["a", "b"], ["c"])')).toEqual([["a", "c"], ["b", "c"]]);
    expect(isSetValue(ev('setproduct(toset(["a"]), ["c"])'))).toBe(true);
    // "Call to function "setproduct" failed: at least two arguments are required."
    expect(() => ev('setproduct(["a"])')).toThrow(/at least two arguments are required/);
    expect(ev('try(setproduct(["a"]), "caught")')).toBe("caught");
  });

  it("numbers convert to string in full, never with an exponent", () => {
    const cases: [string, string][] = [
      ["tostring(1e21)", "1000000000000000000000"],
      ['"y${1e20}"', "y100000000000000000000"],
      ['"x${1.5e-7}"', "x0.00000015"],
      ['"x${1e-20}"', "x0.00000000000000000001"],
      ['"x${-0.000001}"', "x-0.000001"],
      ['"x${0.1}"', "x0.1"],
      ['"x${2e300}"', "x2" + "0".repeat(300)],
      ["tostring(9007199254740991)", "9007199254740991"],
      ["tostring(-0)", "-0"],
      ['"${1.5}-${12}"', "1.5-12"],
    ];
    for (const [src, want] of cases) expect(ev(src), src).toBe(want);
    expect(ev('{ "${1e21}" = 1 }')).toEqual({ "1000000000000000000000": 1 });
  });

  it("a number whose text terraform knows but a double does not is unknown, never rounded digits, and try does not catch it", () => {
    // terraform: "${1/3}" is 0.333… to 154 digits; 12345678901234567890 and 9007199254740992 + 1 stay exact.
    for (const src of ['"x${1/3}"', "tostring(12345678901234567890)", "tostring(9007199254740992 + 1)", "9007199254740992 + 1", "tostring(4294967296 * 4294967296)", "4294967297 * 4294967297", 'try(tostring(1/3), "x")']) {
      const v = ev(src);
      expect(v, src).toBeInstanceOf(Unknown);
      expect((v as Unknown).reason, src).toMatch(/offline/);
    }
    expect(ev("9007199254740990 + 1")).toBe(9007199254740991);
    expect(ev("1/4 * 4")).toBe(1);
  });
});
