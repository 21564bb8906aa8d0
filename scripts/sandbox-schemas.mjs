#!/usr/bin/env node
// Rebuilds the provider double's schema data (src/sandbox/schemas/<version>.json) from the Cloudflare
// provider's own Go source at a release tag, so the schemas Terraform validates against are the real
// provider's and not a guess:
//
//   node scripts/sandbox-schemas.mjs <git dir of cloudflare/terraform-provider-cloudflare> <tag> [out.json]
//
// It reads the schema literals (SDKv2 map[string]*schema.Schema and plugin-framework schema.Schema) with a
// small parser for Go composite literals, and derives what Terraform sees exactly as the SDKs do:
// SDKv2's CoreConfigSchema (blocks for Elem *Resource unless computed-only, min_items 1 for a required
// block, the implicit optional+computed "id", the timeouts block) and the framework's blocks (no
// min/max items on the wire).

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

const [gitDir, tag, outFile] = process.argv.slice(2);
if (!gitDir || !tag) {
  process.stderr.write("usage: sandbox-schemas.mjs <provider git dir> <tag> [out.json]\n");
  process.exit(2);
}
const REPOSITORY = "https://github.com/cloudflare/terraform-provider-cloudflare";

const RESOURCES = [
  "cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule", "cloudflare_waf_override",
  "cloudflare_zone", "cloudflare_filter", "cloudflare_firewall_rule", "cloudflare_page_rule",
  "cloudflare_zone_settings_override", "cloudflare_ruleset", "cloudflare_certificate_pack", "cloudflare_custom_hostname",
];
const DATA_SOURCES = ["cloudflare_waf_packages", "cloudflare_waf_groups", "cloudflare_waf_rules", "cloudflare_zone"];

function git(...args) {
  return execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "pipe"] });
}

// ---- a tokenizer and expression parser for the Go used in schema literals --------------------------

function tokenize(src) {
  const toks = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    if (src.startsWith("//", i)) { i = src.indexOf("\n", i); if (i < 0) break; continue; }
    if (src.startsWith("/*", i)) { i = src.indexOf("*/", i) + 2; continue; }
    if (c === '"') {
      let j = i + 1, s = "";
      while (src[j] !== '"') { if (src[j] === "\\") { s += JSON.parse(`"${src.slice(j, j + 2)}"`); j += 2; } else s += src[j++]; }
      toks.push({ t: "str", v: s }); i = j + 1; continue;
    }
    if (c === "`") { const j = src.indexOf("`", i + 1); toks.push({ t: "str", v: src.slice(i + 1, j) }); i = j + 1; continue; }
    if (c === "'") { let j = i + 1; while (src[j] !== "'") j += src[j] === "\\" ? 2 : 1; toks.push({ t: "rune" }); i = j + 1; continue; }
    if (/[0-9]/.test(c)) { const m = /^[0-9][0-9a-fA-FxX._]*/.exec(src.slice(i)); toks.push({ t: "num", v: Number(m[0].replace(/_/g, "")) }); i += m[0].length; continue; }
    if (/[A-Za-z_]/.test(c)) { const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i)); toks.push({ t: "id", v: m[0] }); i += m[0].length; continue; }
    if (src.startsWith("...", i)) { toks.push({ t: "p", v: "..." }); i += 3; continue; }
    toks.push({ t: "p", v: c }); i++;
  }
  return toks;
}

class Parser {
  constructor(toks, pos = 0) { this.toks = toks; this.pos = pos; }
  peek(o = 0) { return this.toks[this.pos + o]; }
  is(v, o = 0) { const t = this.peek(o); return t && t.v === v && (t.t === "p" || t.t === "id"); }
  next() { return this.toks[this.pos++]; }
  expect(v) { const t = this.next(); if (!t || t.v !== v) throw new Error(`expected ${v}, got ${t && t.v} at token ${this.pos}`); return t; }
  skipBalanced(open, close) {
    this.expect(open);
    let depth = 1;
    while (depth > 0) { const t = this.next(); if (t.t === "p" && t.v === open) depth++; else if (t.t === "p" && t.v === close) depth--; }
  }
  parseType() {
    if (this.is("*")) { this.next(); return this.parseType(); }
    if (this.is("[")) { this.skipBalanced("[", "]"); return { type: "slice", elem: this.parseType() }; }
    if (this.is("map")) { this.next(); this.expect("["); this.parseType(); this.expect("]"); return { type: "map", elem: this.parseType() }; }
    if (this.is("interface")) { this.next(); this.skipBalanced("{", "}"); return { type: "interface" }; }
    if (this.is("func")) { this.next(); this.skipBalanced("(", ")"); if (this.is("(")) this.skipBalanced("(", ")"); else if (this.peek().t === "id" && !this.is("{")) this.parseType(); return { type: "func" }; }
    let name = this.next().v;
    while (this.is(".")) { this.next(); name += "." + this.next().v; }
    return { type: name };
  }
  parseExpr() {
    let left = this.parseUnary();
    while (this.peek() && this.peek().t === "p" && ["+", "-", "*", "/", "|", "&", "=", "!", "<", ">", "%"].includes(this.peek().v) && !(this.is("=") && !this.is("=", 1))) {
      // binary operators (==, !=, &&, || come as two tokens)
      const op = this.next().v;
      if (["=", "&", "|"].includes(this.peek().v) && this.peek().t === "p") this.next();
      const right = this.parseUnary();
      left = op === "+" && left.k === "str" && right.k === "str" ? { k: "str", v: left.v + right.v } : { k: "binop" };
    }
    return left;
  }
  parseUnary() {
    if (this.is("&") || this.is("-") || this.is("!") || this.is("*")) { const op = this.next().v; const x = this.parseUnary(); return op === "-" && x.k === "num" ? { k: "num", v: -x.v } : x; }
    return this.parsePostfix(this.parsePrimary());
  }
  parsePrimary() {
    const t = this.peek();
    if (t.t === "str") { this.next(); return { k: "str", v: t.v }; }
    if (t.t === "num") { this.next(); return { k: "num", v: t.v }; }
    if (t.t === "rune") { this.next(); return { k: "rune" }; }
    if (this.is("(")) { this.next(); const e = this.parseExpr(); this.expect(")"); return e; }
    if (this.is("func")) {
      this.next(); this.skipBalanced("(", ")");
      while (!this.is("{")) { if (this.is("(")) this.skipBalanced("(", ")"); else this.next(); }
      this.skipBalanced("{", "}");
      return { k: "funclit" };
    }
    if (this.is("[") || this.is("map")) { const type = this.parseType(); return this.parseComposite(type.type === "slice" ? "slice" : "map"); }
    if (this.is("{")) return this.parseComposite("");
    if (t.t === "id") {
      this.next();
      let name = t.v;
      while (this.is(".") && this.peek(1).t === "id") { this.next(); name += "." + this.next().v; }
      return { k: "name", v: name };
    }
    throw new Error(`unexpected token ${t.v} at ${this.pos}`);
  }
  parsePostfix(x) {
    for (;;) {
      if (this.is("(")) {
        this.next();
        const args = [];
        while (!this.is(")")) { args.push(this.parseExpr()); if (this.is("...")) this.next(); if (this.is(",")) this.next(); }
        this.next();
        x = { k: "call", callee: x.k === "name" ? x.v : "?", args };
      } else if (this.is("{") && x.k === "name") {
        x = this.parseComposite(x.v);
      } else if (this.is("[")) {
        this.skipBalanced("[", "]");
        x = { k: "index" };
      } else if (this.is(".") && this.is("(", 1)) {
        this.next(); this.skipBalanced("(", ")");
      } else if (this.is(".") && this.peek(1).t === "id") {
        this.next(); this.next(); x = { k: "selector" };
      } else return x;
    }
  }
  parseComposite(ctype) {
    this.expect("{");
    const entries = [];
    while (!this.is("}")) {
      const first = this.parseExpr();
      if (this.is(":")) { this.next(); entries.push({ key: first, value: this.parseExpr() }); }
      else entries.push({ key: null, value: first });
      if (this.is(",")) this.next();
    }
    this.next();
    return { k: "composite", ctype, entries };
  }
}

// ---- the package: top-level funcs, vars and consts of every .go file ------------------------------

function loadPackage(dir) {
  const files = git("ls-tree", "--name-only", `${tag}:${dir}`).split("\n").filter((f) => f.endsWith(".go") && !f.endsWith("_test.go"));
  const pkg = { dir, funcs: new Map(), values: new Map(), files: new Map() };
  for (const f of files) {
    const toks = tokenize(git("show", `${tag}:${dir}/${f}`));
    pkg.files.set(f, toks);
    let depth = 0;
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i];
      if (t.t === "p" && (t.v === "{" || t.v === "(")) depth++;
      else if (t.t === "p" && (t.v === "}" || t.v === ")")) depth--;
      else if (depth === 0 && t.t === "id" && t.v === "func") {
        let j = i + 1, recv = "";
        if (toks[j].v === "(") { let d = 0; do { if (toks[j].v === "(") d++; if (toks[j].v === ")") d--; if (toks[j].t === "id") recv = toks[j].v; j++; } while (d > 0); }
        const name = recv ? `${recv}.${toks[j].v}` : toks[j].v;
        // the body starts at the first "{" outside parentheses/brackets after the name
        let k = j + 1, d = 0;
        while (!(d === 0 && toks[k].v === "{" && toks[k].t === "p" && !(toks[k - 1].v === "interface"))) { if ("([".includes(toks[k].v) && toks[k].t === "p") d++; if (")]".includes(toks[k].v) && toks[k].t === "p") d--; k++; }
        pkg.funcs.set(name, { file: f, body: k });
      } else if (depth === 0 && t.t === "id" && (t.v === "var" || t.v === "const")) {
        const decl = (j) => { const name = toks[j].v; let k = j + 1; while (toks[k].v !== "=") k++; pkg.values.set(name, { file: f, at: k + 1 }); };
        if (toks[i + 1].v === "(") {
          let j = i + 2;
          while (toks[j].v !== ")") {
            decl(j);
            const p = new Parser(toks, pkg.values.get(toks[j].v).at); p.parseExpr(); j = p.pos;
          }
        } else decl(i + 1);
      }
    }
  }
  return pkg;
}

// Where the SDKv2 provider package lived: cloudflare/ (2.x - 3.15), internal/provider/ (3.16 - 3.32),
// internal/sdkv2provider/ (3.33 on). The consts package came with the last move.
// 5.x has no SDKv2 package at all: every type is plugin-framework code generated per service.
const MAJOR = Number(/^v(\d+)\./.exec(tag)?.[1] ?? 0);
const SDK_DIR = MAJOR >= 5 ? null : ["internal/sdkv2provider", "internal/provider", "cloudflare"].find((d) => {
  try { return git("ls-tree", "--name-only", `${tag}:${d}`).split("\n").includes("provider.go"); } catch { return false; }
});
if (MAJOR < 5 && !SDK_DIR) throw new Error(`${tag}: no SDKv2 provider package (provider.go) found`);
const sdk = SDK_DIR ? loadPackage(SDK_DIR) : null;
let consts = { dir: "internal/consts", funcs: new Map(), values: new Map(), files: new Map() };
try { consts = loadPackage("internal/consts"); } catch { /* before 3.33: no consts package */ }
let framework = null;
try { framework = loadPackage("internal/framework/service/rulesets"); } catch { framework = null; }

function evalNode(node, pkg) {
  switch (node.k) {
    case "str": case "num": return node.v;
    case "name": {
      if (node.v === "true") return true;
      if (node.v === "false") return false;
      if (node.v === "nil") return null;
      if (node.v.startsWith("consts.")) return evalValue(consts, node.v.slice(7));
      if (pkg.values.has(node.v)) return evalValue(pkg, node.v);
      return { sym: node.v };
    }
    case "call": {
      if (node.args.length === 0 && pkg.funcs.has(node.callee)) return evalFuncReturn(pkg, node.callee);
      return { call: node.callee, args: node.args.map((a) => (a.k === "str" || a.k === "num" || a.k === "name" || a.k === "composite" ? evalNode(a, pkg) : { sym: a.k })) };
    }
    case "composite": return { ctype: node.ctype, entries: node.entries.map((e) => ({ key: e.key ? evalNode(e.key, pkg) : null, value: evalNode(e.value, pkg) })) };
    default: return { sym: node.k };
  }
}

function evalValue(pkg, name) {
  const decl = pkg.values.get(name);
  return evalNode(new Parser(pkg.files.get(decl.file), decl.at).parseExpr(), pkg);
}

/** The value a function returns, or what it assigns to resp.Schema (framework Schema methods). */
function evalFuncReturn(pkg, name) {
  const fn = pkg.funcs.get(name);
  const toks = pkg.files.get(fn.file);
  let depth = 0;
  for (let i = fn.body; i < toks.length; i++) {
    const t = toks[i];
    if (t.t === "p" && t.v === "{") depth++;
    if (t.t === "p" && t.v === "}") { depth--; if (depth === 0) break; }
    if (depth === 1 && t.t === "id" && t.v === "return") return evalNode(new Parser(toks, i + 1).parseExpr(), pkg);
    if (depth === 1 && t.v === "resp" && toks[i + 1].v === "." && toks[i + 2].v === "Schema" && toks[i + 3].v === "=") return evalNode(new Parser(toks, i + 4).parseExpr(), pkg);
  }
  throw new Error(`cannot find the returned value of ${name}`);
}

function field(composite, name) {
  const e = composite.entries.find((x) => x.key === name || (x.key && x.key.sym === name));
  return e ? e.value : undefined;
}

function mapEntries(composite) {
  if (!composite || !composite.entries) throw new Error(`not a map literal: ${JSON.stringify(composite).slice(0, 200)}`);
  return composite.entries.map((e) => [e.key, e.value]);
}

// ---- SDKv2 -> Terraform's view (helper/schema core_schema.go) ---------------------------------------

function sdkType(s) {
  const t = field(s, "Type")?.sym;
  const prim = { "schema.TypeString": "string", "schema.TypeBool": "bool", "schema.TypeInt": "number", "schema.TypeFloat": "number" };
  if (prim[t]) return prim[t];
  const kind = { "schema.TypeList": "list", "schema.TypeSet": "set", "schema.TypeMap": "map" }[t];
  if (!kind) throw new Error(`unknown SDK type ${t}`);
  const elem = field(s, "Elem");
  let elemType = "string";
  if (elem && elem.ctype === "schema.Schema") elemType = sdkType(elem);
  else if (elem && elem.ctype === "schema.Resource") elemType = impliedType(sdkBlock(field(elem, "Schema")));
  else if (elem && elem.sym && prim[elem.sym]) elemType = prim[elem.sym];
  return [kind, elemType];
}

function impliedType(block) {
  const fields = {};
  for (const [n, a] of Object.entries(block.attributes)) fields[n] = a.type;
  for (const [n, b] of Object.entries(block.blocks)) {
    const inner = impliedType(b.block);
    fields[n] = b.nesting === "single" || b.nesting === "group" ? inner : [b.nesting, inner];
  }
  return ["object", fields];
}

function sdkAttribute(s) {
  const out = { type: sdkType(s) };
  let required = field(s, "Required") === true, optional = field(s, "Optional") === true;
  if (required && field(s, "DefaultFunc") !== undefined) { required = false; optional = true; }
  if (required) out.required = true;
  if (optional) out.optional = true;
  if (field(s, "Computed") === true) out.computed = true;
  if (field(s, "Sensitive") === true) out.sensitive = true;
  const dep = field(s, "Deprecated");
  if (dep !== undefined && dep !== "") out.deprecated = true;
  if (field(s, "ForceNew") === true) out.forceNew = true;
  const def = field(s, "Default");
  if (def !== undefined && (typeof def === "string" || typeof def === "number" || typeof def === "boolean")) out.default = def;
  // validation.StringInSlice with literal values: the provider itself rejects anything else at validate time
  const vf = field(s, "ValidateFunc");
  if (vf?.call === "validation.StringInSlice" && vf.args[0]?.entries?.every((e) => typeof e.value === "string") && vf.args[1] === false) {
    out.oneOf = vf.args[0].entries.map((e) => e.value);
  }
  return out;
}

function sdkBlock(schemaMap) {
  const block = { attributes: {}, blocks: {} };
  for (const [name, s] of mapEntries(schemaMap)) {
    const elem = field(s, "Elem");
    const type = field(s, "Type")?.sym;
    const computedOnly = field(s, "Computed") === true && field(s, "Optional") !== true;
    const configMode = field(s, "ConfigMode")?.sym;
    const isResource = elem && elem.ctype === "schema.Resource";
    const asBlock = isResource && type !== "schema.TypeMap" && configMode !== "schema.SchemaConfigModeAttr" && (configMode === "schema.SchemaConfigModeBlock" || !computedOnly);
    if (!asBlock) { block.attributes[name] = sdkAttribute(isResource && type === "schema.TypeMap" ? { ...s, entries: s.entries.filter((e) => e.key !== "Elem") } : s); continue; }
    const nb = { nesting: { "schema.TypeList": "list", "schema.TypeSet": "set", "schema.TypeMap": "map" }[type], block: sdkBlock(field(elem, "Schema")) };
    let min = field(s, "MinItems") ?? 0, max = field(s, "MaxItems") ?? 0;
    if (field(s, "Required") === true && min === 0) min = 1;
    if (field(s, "Optional") === true && min > 0) min = 0;
    if (field(s, "Computed") === true && field(s, "Optional") !== true) { min = 0; max = 0; }
    if (min) nb.minItems = min;
    if (max) nb.maxItems = max;
    if (field(s, "ForceNew") === true) nb.forceNew = true;
    block.blocks[name] = nb;
  }
  return block;
}

function sdkResource(resource, source) {
  const block = sdkBlock(field(resource, "Schema"));
  if (!block.attributes.id) block.attributes.id = { type: "string", optional: true, computed: true };
  const timeouts = field(resource, "Timeouts");
  if (timeouts && !block.attributes.timeouts && !block.blocks.timeouts) {
    const attrs = {};
    for (const k of ["Create", "Read", "Update", "Delete", "Default"]) if (field(timeouts, k) !== undefined) attrs[k.toLowerCase()] = { type: "string", optional: true };
    block.blocks.timeouts = { nesting: "single", block: { attributes: attrs, blocks: {} } };
  }
  return { version: field(resource, "SchemaVersion") ?? 0, sdk: "sdkv2", source, block };
}

// ---- plugin framework -> Terraform's view -----------------------------------------------------------

function fwElemType(v) {
  const prim = { "types.StringType": "string", "types.BoolType": "bool", "types.Int64Type": "number", "types.Float64Type": "number", "types.NumberType": "number" };
  if (v.sym && prim[v.sym]) return prim[v.sym];
  const kind = { "types.ListType": "list", "types.SetType": "set", "types.MapType": "map" }[v.ctype];
  if (kind) return [kind, fwElemType(field(v, "ElemType"))];
  if (v.ctype === "types.ObjectType") return ["object", Object.fromEntries(mapEntries(field(v, "AttrTypes")).map(([k, t]) => [k, fwElemType(t)]))];
  throw new Error(`unknown framework type ${JSON.stringify(v).slice(0, 100)}`);
}

function fwAttribute(a) {
  const kinds = { "schema.StringAttribute": "string", "schema.BoolAttribute": "bool", "schema.Int64Attribute": "number", "schema.Float64Attribute": "number", "schema.NumberAttribute": "number", "schema.DynamicAttribute": "dynamic" };
  const coll = { "schema.ListAttribute": "list", "schema.SetAttribute": "set", "schema.MapAttribute": "map" };
  // Nested attributes (protocol 6, the 5.x provider's attribute syntax): Terraform gets their attributes as
  // a nested_type; the value's type is the implied object (or collection of objects).
  const nestedKinds = { "schema.ListNestedAttribute": "list", "schema.SetNestedAttribute": "set", "schema.MapNestedAttribute": "map", "schema.SingleNestedAttribute": "single" };
  let type, nested;
  if (kinds[a.ctype]) type = kinds[a.ctype];
  else if (coll[a.ctype]) type = [coll[a.ctype], fwElemType(field(a, "ElementType"))];
  else if (nestedKinds[a.ctype]) {
    const nesting = nestedKinds[a.ctype];
    const obj = nesting === "single" ? a : field(a, "NestedObject");
    const attributes = Object.fromEntries(mapEntries(field(obj, "Attributes")).map(([n, x]) => [n, fwAttribute(x)]));
    const inner = ["object", Object.fromEntries(Object.entries(attributes).map(([n, x]) => [n, x.type]))];
    type = nesting === "single" ? inner : [nesting, inner];
    nested = { nesting, attributes };
  } else throw new Error(`unsupported framework attribute ${a.ctype}`);
  const out = { type };
  if (nested) out.nested = nested;
  for (const k of ["Required", "Optional", "Computed", "Sensitive"]) if (field(a, k) === true) out[k.toLowerCase()] = true;
  const dep = field(a, "DeprecationMessage");
  if (typeof dep === "string" && dep) out.deprecated = true;
  const mods = field(a, "PlanModifiers");
  if (mods && mods.entries?.some((e) => /\.RequiresReplace$/.test(e.value.call ?? ""))) out.forceNew = true;
  const def = field(a, "Default");
  if (def && def.call && /\.Static(Bool|String|Int64|Float64)$/.test(def.call)) out.default = def.args[0];
  // the provider's own default plan modifiers (internal/framework/modifiers/defaults) do the same job
  const defMod = mods?.entries?.find((e) => /^defaults\.Default(Bool|String|Int64|Float64)$/.test(e.value.call ?? ""));
  if (defMod) out.default = defMod.value.args[0];
  return out;
}

function fwBlock(obj) {
  const block = { attributes: {}, blocks: {} };
  const attrs = field(obj, "Attributes");
  if (attrs) for (const [name, a] of mapEntries(attrs)) block.attributes[name] = fwAttribute(a);
  const blocks = field(obj, "Blocks");
  if (blocks) for (const [name, b] of mapEntries(blocks)) {
    const nesting = { "schema.ListNestedBlock": "list", "schema.SetNestedBlock": "set", "schema.SingleNestedBlock": "single" }[b.ctype];
    if (!nesting) throw new Error(`unsupported framework block ${b.ctype}`);
    const nb = { nesting, block: fwBlock(nesting === "single" ? b : field(b, "NestedObject")) };
    const validators = field(b, "Validators");
    if (validators?.entries?.some((e) => /\.SizeAtMost$/.test(e.value.call ?? "") && e.value.args[0] === 1)) nb.atMostOne = true;
    const mods = field(b, "PlanModifiers");
    if (mods?.entries?.some((e) => /\.RequiresReplace$/.test(e.value.call ?? ""))) nb.forceNew = true;
    block.blocks[name] = nb;
  }
  return block;
}

// ---- the provider: its own schema and the constructors of the served types --------------------------

function providerLiteral() {
  const toks = sdk.files.get("provider.go");
  for (let i = 0; i < toks.length - 3; i++) {
    if (toks[i - 1]?.v !== "*" && toks[i].v === "schema" && toks[i + 1].v === "." && toks[i + 2].v === "Provider" && toks[i + 3].v === "{") return evalNode(new Parser(toks, i).parseExpr(), sdk);
  }
  throw new Error("schema.Provider literal not found in provider.go");
}

if (MAJOR >= 5) {
  writeOut(v5Schemas());
  process.exit(0);
}

/** 5.x: internal/services/<type without cloudflare_>/schema.go (ResourceSchema) and data_source_schema.go. */
function v5Schemas() {
  const root = loadPackage("internal");
  const out = { version: tag.replace(/^v/, ""), repository: REPOSITORY, tag, protocol: 6, provider: fwBlock(evalFuncReturn(root, "ProviderSchema")), resources: {}, dataSources: {} };
  const service = (type) => {
    try { return loadPackage(`internal/services/${type.replace(/^cloudflare_/, "")}`); } catch { return null; }
  };
  for (const type of RESOURCES) {
    const pkg = service(type);
    if (!pkg?.funcs.has("ResourceSchema")) continue;
    const s = evalFuncReturn(pkg, "ResourceSchema");
    out.resources[type] = { version: field(s, "Version") ?? 0, sdk: "framework", source: `${pkg.dir}/${pkg.funcs.get("ResourceSchema").file}`, block: fwBlock(s) };
  }
  for (const type of DATA_SOURCES) {
    const pkg = service(type);
    if (!pkg?.funcs.has("DataSourceSchema")) continue;
    const s = evalFuncReturn(pkg, "DataSourceSchema");
    out.dataSources[type] = { version: 0, sdk: "framework", source: `${pkg.dir}/${pkg.funcs.get("DataSourceSchema").file}`, block: fwBlock(s) };
  }
  return out;
}

function writeOut(out) {
  const json = JSON.stringify(out, null, 2) + "\n";
  if (outFile) writeFileSync(outFile, json);
  else process.stdout.write(json);
  process.stderr.write(`${tag}: ${Object.keys(out.resources).length} resources, ${Object.keys(out.dataSources).length} data sources\n`);
}

const provider = providerLiteral();
const resourcesMap = new Map(mapEntries(field(provider, "ResourcesMap")));
const dataSourcesMap = new Map(mapEntries(field(provider, "DataSourcesMap")));

function sourceOf(name) {
  for (const [fname, fn] of sdk.funcs) if (fname === name) return `${SDK_DIR}/${fn.file}`;
  return SDK_DIR;
}

const out = {
  version: tag.replace(/^v/, ""),
  repository: REPOSITORY,
  tag,
  provider: sdkBlock(field(provider, "Schema")),
  resources: {},
  dataSources: {},
};

for (const type of RESOURCES) {
  const ctor = resourcesMap.get(type);
  if (ctor) {
    // the map holds already-evaluated constructor results; find the constructor's name for the source note
    const ctorName = findCtorName("ResourcesMap", type);
    out.resources[type] = sdkResource(ctor, sourceOf(ctorName));
  } else if (type === "cloudflare_ruleset" && framework?.funcs.has("RulesetResource.Schema")) {
    const s = evalFuncReturn(framework, "RulesetResource.Schema");
    out.resources[type] = { version: field(s, "Version") ?? 0, sdk: "framework", source: `internal/framework/service/rulesets/${framework.funcs.get("RulesetResource.Schema").file}`, block: fwBlock(s) };
  }
}
for (const type of DATA_SOURCES) {
  const ds = dataSourcesMap.get(type);
  if (ds) out.dataSources[type] = sdkResource(ds, sourceOf(findCtorName("DataSourcesMap", type)));
}

function findCtorName(mapName, type) {
  const toks = sdk.files.get("provider.go");
  const from = toks.findIndex((t) => t.v === mapName);
  for (let i = Math.max(from, 0); i < toks.length - 2; i++) if (toks[i].t === "str" && toks[i].v === type && toks[i + 1].v === ":") return toks[i + 2].v;
  return mapName;
}

writeOut(out);
