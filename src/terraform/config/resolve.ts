// What the configuration's expressions evaluate to offline. For every module instance (through `count` and
// `for_each` of module calls when they are known) this builds the scope the core evaluator asks: root
// variables from tfvars / --var-file / --var, module inputs through the call chain, variable defaults,
// locals, `each`/`count` of an instance, `path.*`, `file()` relative to the root, and resource identities
// (`cloudflare_zone.z["shop"].id`). Anything else — data sources, module outputs, attributes known only
// after apply, variables nobody sets — is `Unknown` with a reason, never a default.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { evaluateConfigValue } from "../../core/tf-expr/body.js";
import type { Scope } from "../../core/tf-expr/evaluate.js";
import { isKnown, isListValue, isObject, isSetValue, markList, markMap, markSet, newObject, ResourceReference, typeName, Unknown, UnreadableFile, type Known, type Value } from "../../core/tf-expr/values.js";
import { fileCallPosition } from "./file-call-position.js";
import type { AttributeError } from "../hcl/attribute-position.js";
import type { ModuleNode } from "./modules.js";

/** Root variable values (tfvars, --var-file, --var), by root directory. */
export type RootVariables = (rootDir: string) => Record<string, Value>;

/** One instance of a module: the root, `module.waf["shop"]`, or `module.waf` when its keys are unknown. */
export interface ModuleInstance {
  node: ModuleNode;
  /** Instance path as state prints it (`module.waf["shop"]`); the config path when keys are unknown. */
  path: string;
  /** False when this or an enclosing module call has count/for_each that cannot be evaluated offline. */
  keysKnown: boolean;
  /** `each`/`count` of the module call's instance (what its arguments see). */
  binding: InstanceBinding;
  parent: ModuleInstance | null;
  root: ModuleInstance;
  locals: Map<string, Value>;
  /** Variable values, evaluated once per instance (a module input can be an expensive yamldecode). */
  variables: Map<string, Value>;
}

export interface InstanceBinding {
  each?: { key: Value; value: Value };
  count?: Value;
}

/** Instances of a `count`/`for_each`: their keys and bindings, or null when the keys are not known offline. */
export interface Expansion {
  instances: { key: string | number | null; binding: InstanceBinding }[] | null;
  /** Why the instances are unknown. */
  reason?: string;
  /** The value is known offline and terraform rejects it: what terraform says (an input error, not unknown). */
  invalid?: string;
}

/** Where a `count`/`for_each` is written: its block and the address of what it expands. */
export interface BlockAt {
  file: string;
  line: number;
  address: string;
}

const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_DEPTH = 64;

export class EvaluationContext {
  private instances = new Map<ModuleNode, ModuleInstance[]>();
  private rootDir = new Map<ModuleInstance, string>();
  private fileCache = new Map<string, string | Unknown | UnreadableFile>();
  private invalid = new Map<string, AttributeError>();
  private depth = 0;

  constructor(
    roots: ModuleNode[],
    allNodes: ModuleNode[],
    private readonly rootVariables: RootVariables,
    private readonly displayFile: (abs: string) => string,
    /**
     * What `terraform.workspace` evaluates to, when certain; null: not known offline (VALUE_UNRESOLVED), since
     * one configuration plans differently in each workspace.
     */
    private readonly workspace: string | null = null,
  ) {
    const children = new Map<ModuleNode, ModuleNode[]>();
    for (const n of allNodes) if (n.parent) children.set(n.parent, [...(children.get(n.parent) ?? []), n]);
    const visit = (node: ModuleNode, parents: ModuleInstance[]) => {
      this.checkRequiredInputs(node);
      const list = this.instances.get(node) ?? [];
      for (const p of parents) list.push(...this.expandModule(node, p));
      this.instances.set(node, list);
      for (const c of children.get(node) ?? []) visit(c, list);
    };
    for (const r of roots) {
      const inst = this.newInstance(r, "", true, {}, null);
      this.instances.set(r, [inst]);
      for (const c of children.get(r) ?? []) visit(c, [inst]);
    }
  }

  /** The instances of a module node (one, for a root). */
  moduleInstances(node: ModuleNode): ModuleInstance[] {
    return this.instances.get(node) ?? [];
  }

  /** The scope of an expression in a module instance, with the `each`/`count` of a resource instance. */
  scope(mi: ModuleInstance, binding: InstanceBinding = {}): Scope {
    return { reference: (parts) => this.reference(mi, binding, parts), readFile: (p) => this.readFile(mi, p), unreadable: (err) => this.recordUnreadable(mi, err) };
  }

  /** Evaluates an hcl2json value in a module instance. */
  value(v: unknown, mi: ModuleInstance, binding: InstanceBinding = {}): Value {
    if (this.depth > MAX_DEPTH) return new Unknown("expression nesting too deep (a reference cycle?)");
    this.depth++;
    try {
      return evaluateConfigValue(v, this.scope(mi, binding));
    } finally {
      this.depth--;
    }
  }

  /**
   * The instances `count` / `for_each` give, evaluated in `mi`. Neither set: one instance without a key.
   * A value known offline that terraform rejects (`for_each = null`, a list or tuple, `count = -1`) gives no
   * instances and `invalid`: terraform's message; with `at` (the block), it is also recorded as an input
   * error at the argument (see `inputErrors`).
   */
  expand(count: unknown, forEach: unknown, mi: ModuleInstance, at?: BlockAt): Expansion {
    const exp = this.expandValue(count, forEach, mi);
    if (exp.invalid && at) this.recordInvalid(at, forEach !== undefined ? "for_each" : "count", exp.invalid);
    return exp;
  }

  /**
   * The input errors found so far: bad `count`/`for_each` values terraform rejects (`expand`), `file()` calls of
   * files it cannot read, module calls missing a required variable.
   */
  get inputErrors(): AttributeError[] {
    return [...this.invalid.values()];
  }

  /**
   * A module call that does not set a variable the module declares without a default: terraform rejects the
   * configuration ("Missing required argument"), so it is an input error at the call, whatever the values
   * that depend on the variable (unknown, VALUE_UNRESOLVED) mean for the zones.
   */
  private checkRequiredInputs(node: ModuleNode): void {
    const call = node.call;
    if (!call) return;
    const variables = node.dir.variables;
    const missing = Object.keys(variables)
      .filter((name) => !Object.hasOwn(variables[name]!, "default") && !Object.hasOwn(call.inputs, name))
      .sort();
    for (const name of missing) {
      const key = `${call.file}\u0000${call.line}\u0000required\u0000${name}`;
      if (this.invalid.has(key)) continue;
      this.invalid.set(key, {
        file: call.file,
        line: call.line,
        column: null,
        message: `module "${call.name}": the argument "${name}" is required (its variable has no default), but the module block does not set it: terraform rejects this configuration (Missing required argument); set ${name} in the module block`,
      });
    }
  }

  private recordInvalid(at: BlockAt, attribute: string, message: string): void {
    const key = `${at.file}\u0000${at.line}\u0000${at.address}\u0000${message}`;
    if (!this.invalid.has(key)) this.invalid.set(key, { file: at.file, line: at.line, column: null, attribute, message: `${at.address}: ${message}` });
  }

  private expandValue(count: unknown, forEach: unknown, mi: ModuleInstance): Expansion {
    if (forEach !== undefined) {
      const v = this.value(forEach, mi);
      if (!isKnown(v)) return { instances: null, reason: reasonOf(v) };
      if (isObject(v)) {
        return { instances: Object.keys(v).sort().map((k) => ({ key: k, binding: { each: { key: k, value: v[k]! } } })) };
      }
      const bad = invalidForEach(v);
      if (bad) return { instances: null, reason: bad, invalid: bad };
      if (Array.isArray(v) && v.every((x): x is string => typeof x === "string")) {
        return { instances: [...new Set(v)].sort().map((k) => ({ key: k, binding: { each: { key: k, value: k } } })) };
      }
      return { instances: null, reason: "for_each is not a map or a set of strings" };
    }
    if (count !== undefined) {
      const v = this.value(count, mi);
      if (!isKnown(v)) return { instances: null, reason: reasonOf(v) };
      const n = countOf(v);
      if (typeof n === "string") return { instances: null, reason: n, invalid: n };
      return { instances: Array.from({ length: n }, (_, i) => ({ key: i, binding: { count: i } })) };
    }
    return { instances: [{ key: null, binding: {} }] };
  }

  private expandModule(node: ModuleNode, parent: ModuleInstance): ModuleInstance[] {
    const call = node.call!;
    const base = parent.path ? `${parent.path}.module.${call.name}` : `module.${call.name}`;
    const exp = this.expand(call.count, call.forEach, parent, { file: call.file, line: call.line, address: parent.keysKnown ? base : `${parent.path}.module.${call.name}` });
    if (!exp.instances || !parent.keysKnown) {
      const unknown = new Unknown(`the instances of module.${call.name} are not known offline${exp.reason ? ` (${exp.reason})` : ""}`);
      const binding: InstanceBinding = call.forEach !== undefined ? { each: { key: unknown, value: unknown } } : call.count !== undefined ? { count: unknown } : {};
      return [this.newInstance(node, parent.keysKnown ? base : `${parent.path}.module.${call.name}`, false, binding, parent)];
    }
    return exp.instances.map((i) => this.newInstance(node, base + keySuffix(i.key), true, i.binding, parent));
  }

  private newInstance(node: ModuleNode, p: string, keysKnown: boolean, binding: InstanceBinding, parent: ModuleInstance | null): ModuleInstance {
    const mi = { node, path: p, keysKnown, binding, parent, locals: new Map(), variables: new Map() } as unknown as ModuleInstance;
    mi.root = parent ? parent.root : mi;
    if (!parent) this.rootDir.set(mi, node.dir.dir);
    return mi;
  }

  private reference(mi: ModuleInstance, binding: InstanceBinding, parts: string[]): Value {
    const [root, name] = parts as [string, string];
    switch (root) {
      case "var":
        return this.variable(mi, name);
      case "local":
        return this.local(mi, name);
      case "each":
        if (!binding.each) return new Unknown("each is used outside a for_each");
        if (name === "key") return binding.each.key;
        if (name === "value") return binding.each.value;
        return new Unknown(`each.${name} does not exist`);
      case "count":
        return binding.count !== undefined && name === "index" ? binding.count : new Unknown("count.index is used outside a count");
      case "path":
        if (name === "module") return mi.node.dir.dir;
        if (name === "root" || name === "cwd") return mi.root.node.dir.dir;
        return new Unknown(`path.${name} is not known`);
      case "terraform":
        if (name === "workspace" && this.workspace !== null) return this.workspace;
        return new Unknown(
          name === "workspace"
            ? "terraform.workspace is not known offline: pass the workspace's state from ROOT/terraform.tfstate.d/<workspace>/ (ROOT/terraform.tfstate for default), use --pull-state, or set TF_WORKSPACE"
            : `terraform.${name} depends on how terraform is run`,
        );
      case "data":
        return new Unknown(`data.${parts.slice(1).join(".")} is read from the provider when terraform plans`);
      case "module":
        return new Unknown(`module.${name}'s outputs are not evaluated offline`);
      case "self":
        return new Unknown("self is known only after apply");
      default:
        return new ResourceReference(`${mi.path ? `${mi.path}.` : ""}${root}.${name}`);
    }
  }

  private variable(mi: ModuleInstance, name: string): Value {
    const cached = mi.variables.get(name);
    if (cached !== undefined) return cached;
    mi.variables.set(name, new Unknown(`var.${name} refers to itself`));
    const v = asDeclared(this.variableValue(mi, name), mi.node.dir.variables[name]?.type);
    mi.variables.set(name, v);
    return v;
  }

  private variableValue(mi: ModuleInstance, name: string): Value {
    const call = mi.node.call;
    if (call && mi.parent) {
      if (Object.hasOwn(call.inputs, name)) return this.value(call.inputs[name], mi.parent, mi.binding);
    } else {
      const given = this.rootVariables(mi.node.dir.dir);
      if (Object.hasOwn(given, name)) return given[name]!;
    }
    const decl = Object.hasOwn(mi.node.dir.variables, name) ? mi.node.dir.variables[name] : undefined;
    if (decl && Object.hasOwn(decl, "default")) return this.value(decl.default, mi);
    if (call) return new Unknown(`var.${name}: the call of module.${call.name} (${call.file}:${call.line}) does not set it and it has no default`);
    return new Unknown(`var.${name} has no value offline: give it with --var-file FILE or --var ${name}=VALUE (or pass --state)`);
  }

  private local(mi: ModuleInstance, name: string): Value {
    const cached = mi.locals.get(name);
    if (cached !== undefined) return cached;
    if (!Object.hasOwn(mi.node.dir.locals, name)) return new Unknown(`local.${name} is not defined`);
    // A cycle (local.a = local.b, local.b = local.a) reads the placeholder and stays unknown.
    mi.locals.set(name, new Unknown(`local.${name} refers to itself`));
    const v = this.value(mi.node.dir.locals[name], mi);
    mi.locals.set(name, v);
    return v;
  }

  /**
   * `file(p)`: its text; `Unknown` when too large to read here; throws `UnreadableFile` when terraform itself
   * fails on it (none there, a directory, not readable, not UTF-8).
   */
  private readFile(mi: ModuleInstance, p: string): string | Unknown {
    const abs = path.resolve(mi.root.node.dir.dir, p);
    const cached = this.fileCache.get(abs);
    if (cached instanceof UnreadableFile) throw new UnreadableFile(cached.message, abs);
    if (cached !== undefined) return cached;
    let out: string | Unknown | UnreadableFile;
    try {
      const size = statSync(abs).size;
      out = size > MAX_FILE_BYTES ? new Unknown(`file("${this.displayFile(abs)}") is larger than ${MAX_FILE_BYTES} bytes`) : new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(abs));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const shown = this.displayFile(abs);
      const why = code === "ENOENT" ? `no file exists at ${shown}` : code === "EISDIR" ? `${shown} is a directory` : code ? `${shown} cannot be read (${code})` : `the contents of ${shown} are not valid UTF-8`;
      out = new UnreadableFile(`file("${shown}") cannot be read offline: ${why}`, abs);
    }
    this.fileCache.set(abs, out);
    if (out instanceof UnreadableFile) throw out;
    return out;
  }

  /**
   * A `file()` failure that reached the top of an expression: terraform plan fails on it, so it is an input
   * error at the call (once per file and call), whatever state says of the values it would give.
   */
  private recordUnreadable(mi: ModuleInstance, err: UnreadableFile): void {
    const at = fileCallPosition(mi.node.dir.dir, err.path);
    const file = this.displayFile(at?.file ?? mi.node.dir.dir);
    const key = `unreadable\u0000${file}\u0000${at?.line ?? ""}\u0000${err.path}`;
    if (this.invalid.has(key)) return;
    this.invalid.set(key, {
      file,
      line: at?.line ?? null,
      column: at?.column ?? null,
      message: `${err.message}: terraform plan fails here too (Invalid value for "path" parameter); the values read from it stay unknown, never defaulted: add the file, or give the values another way`,
    });
  }
}

/**
 * A variable's value as its type makes it: a `set(...)` type makes the list given a set (a copy, so the
 * caller's tuple stays one). A set anywhere deeper (`map(set(string))`, `object({ a = optional(set(string)) })`)
 * marks every array in the value, which can only make a `for_each` over it accepted, never rejected.
 */
function asDeclared(v: Value, type: string | undefined): Value {
  const out = asDeclaredArrays(v, type);
  // A `map(...)` variable is a map: its keys() and values() are lists (list(string)), not tuples.
  if (type !== undefined && /^map\s*\(/.test(type.trim()) && isObject(out)) return markMap(out === v ? Object.assign(newObject(), out) : out);
  return out;
}

function asDeclaredArrays(v: Value, type: string | undefined): Value {
  // A `list(...)` variable makes the value given a list (a set given to it is a list: terraform rejects it as a
  // for_each). With a set inside (`list(set(string))`), the deep marking below applies instead.
  if (type !== undefined && /^list\s*\(/.test(type.trim()) && !/\bset\s*\(/.test(type) && Array.isArray(v)) return markList([...v]);
  if (type === undefined || !/\bset\s*\(/.test(type) || !isKnown(v)) return v;
  if (/^set\s*\(/.test(type.trim())) return Array.isArray(v) ? markSet([...v]) : v;
  const deep = (x: Value): Value => {
    if (Array.isArray(x)) return markSet(x.map(deep));
    if (isObject(x)) {
      const o = newObject();
      for (const k of Object.keys(x)) o[k] = deep(x[k]!);
      return o;
    }
    return x;
  };
  return deep(v);
}

/** What terraform says of a known `for_each` value it rejects; null when it accepts it or may. */
function invalidForEach(v: Known): string | null {
  const rejects = 'terraform rejects it: The given "for_each" argument value is unsuitable: ';
  if (v === null) return `for_each is null: ${rejects}the given "for_each" argument value is null. A map, or set of strings is allowed.`;
  if (Array.isArray(v)) {
    if (!isSetValue(v)) {
      const type = isListValue(v) ? `list${elementType(v)}` : "tuple";
      return `for_each is a ${isListValue(v) ? "list" : "tuple"}${v.length === 0 ? " (empty)" : ""}, not a set: ${rejects}the "for_each" argument must be a map, or set of strings, and you have provided a value of type ${type}. Wrap it in toset(...) or make it a map.`;
    }
    if (v.some((x) => x === null)) return `for_each is a set holding null: ${rejects}"for_each" sets must not contain null values.`;
    // A set of numbers or bools (toset([1]), a set(number) variable): terraform takes only strings.
    const kind = v.length > 0 && v.every((x) => typeof x === typeof v[0]) ? typeof v[0] : null;
    if (kind === "number" || kind === "boolean") {
      const name = kind === "boolean" ? "bool" : "number";
      return `for_each is a set of ${name}s: terraform rejects it: The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type ${name}. Convert the elements with tostring, or use a map.`;
    }
    return null;
  }
  if (typeof v === "object") return null;
  return `for_each is a ${typeof v}, not a map or a set of strings: ${rejects}the "for_each" argument must be a map, or set of strings, and you have provided a value of type ${typeof v}.`;
}

/** " of string" when every element is a string (a number, a bool); "" otherwise, as terraform's type names go. */
function elementType(items: Value[]): string {
  if (items.length === 0) return "";
  if (items.every((x) => typeof x === "string")) return " of string";
  if (items.every((x) => typeof x === "number")) return " of number";
  if (items.every((x) => typeof x === "boolean")) return " of bool";
  // setproduct's elements are tuples: terraform says "list of tuple".
  if (items.every((x) => Array.isArray(x) && !isSetValue(x) && !isListValue(x))) return " of tuple";
  return "";
}

/** The number of instances a known `count` gives, or what terraform says when it rejects the value. */
function countOf(v: Known): number | string {
  if (v === null) return 'count is null: terraform rejects it: The given "count" argument value is null. An integer is required.';
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : typeof v === "boolean" ? NaN : null;
  if (n === null || Number.isNaN(n)) return `count is ${typeName(v) === "list" ? "a list" : typeName(v) === "object" ? "an object" : JSON.stringify(v)}, not a number: terraform rejects it: Invalid expression value: a number is required.`;
  if (!Number.isInteger(n)) return `count is ${n}, not a whole number: terraform rejects it: The given "count" argument value is unsuitable: value must be a whole number`;
  if (n < 0) return `count is ${n}: terraform rejects it: The given "count" argument value is unsuitable: must be greater than or equal to zero.`;
  return n;
}

export function keySuffix(key: string | number | null): string {
  return key === null ? "" : typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

export function reasonOf(v: Value): string {
  if (v instanceof Unknown) return v.reason;
  if (v instanceof ResourceReference) return `${v.address} is known only after apply`;
  return "";
}

/** A value known offline as a string id, or a resource reference's address; null otherwise. */
export function stringOrReference(v: Value): { literal: string } | { reference: string } | null {
  if (typeof v === "string") return { literal: v };
  if (v instanceof ResourceReference) return { reference: v.address };
  return null;
}

export type { Known };
