// Whether a state instance of a configured legacy resource is still one of the instances its configuration
// gives. `count = 0` in production, a key that left a `for_each` map (or a tfvars/YAML file), a module
// instance that is gone: the block is still there, so config and state join on the resource, but the next
// `terraform plan` would destroy that instance, which resets the live WAF setting instead of deleting it.
// Nothing is claimed when the keys are not known offline, or when a `moved` block may move the instance.
import { formatIndexKey, parseModulePath, type IndexKey } from "../../core/address.js";
import type { ConfigResource } from "../config/load.js";
import type { ModuleNode } from "../config/modules.js";
import type { EvaluationContext, ModuleInstance } from "../config/resolve.js";
import type { StateInstance } from "../state/read.js";

/** The instance keys the configuration gives, per module instance, or null when they are not known offline. */
interface Configured {
  /** JSON of [module keys…, resource key] of every configured instance. */
  keys: Set<string>;
  /** The same instances' addresses as state prints them, by their key JSON. */
  addresses: Map<string, string>;
  count: boolean;
  forEach: boolean;
  /** A short description of what the configuration gives, for the message. */
  describe: (moduleKeys: (IndexKey | undefined)[]) => string;
}

function moduleKeys(mi: ModuleInstance): (IndexKey | undefined)[] {
  const out: (IndexKey | undefined)[] = [];
  for (let m: ModuleInstance | null = mi; m && m.parent; m = m.parent) {
    const each = m.binding.each?.key;
    const count = m.binding.count;
    out.unshift(typeof each === "string" ? each : typeof count === "number" ? count : undefined);
  }
  return out;
}

function configured(resource: ConfigResource, node: ModuleNode, ctx: EvaluationContext): Configured | null {
  const keys = new Set<string>();
  const addresses = new Map<string, string>();
  const perModule = new Map<string, (IndexKey | null)[]>();
  for (const mi of ctx.moduleInstances(node)) {
    if (!mi.keysKnown) return null;
    const exp = ctx.expand(resource.body.count, resource.body.for_each, mi, { file: resource.file, line: resource.line, address: `${node.path ? `${node.path}.` : ""}${resource.type}.${resource.name}` });
    if (!exp.instances) return null;
    const mk = moduleKeys(mi);
    perModule.set(JSON.stringify(mk), exp.instances.map((i) => i.key));
    for (const i of exp.instances) {
      const key = JSON.stringify([...mk, i.key ?? undefined]);
      keys.add(key);
      addresses.set(key, `${mi.path ? `${mi.path}.` : ""}${resource.type}.${resource.name}${formatIndexKey(i.key ?? undefined)}`);
    }
  }
  const count = "count" in resource.body && !("for_each" in resource.body);
  const forEach = "for_each" in resource.body;
  return {
    keys,
    addresses,
    count,
    forEach,
    describe: (mk) => {
      const given = perModule.get(JSON.stringify(mk));
      if (given === undefined) return "the module call's count/for_each no longer gives its module instance";
      if (count) return `count gives ${given.length} instance${given.length === 1 ? "" : "s"} here`;
      if (forEach) return given.length === 0 ? "for_each is empty here" : `for_each no longer has this key, only ${given.map((k) => JSON.stringify(k)).join(", ")}`;
      return "the configuration no longer gives this instance";
    },
  };
}

/**
 * For the state instances of one configured resource: a reason per instance the configuration no longer
 * gives (address → reason); empty when every one is configured or the configuration's instances are not
 * known offline (nothing is claimed then). Terraform's implied moves between `x` and `x[0]` when `count` is
 * added or removed on a resource are not drift.
 */
export function unconfiguredInstances(resource: ConfigResource, node: ModuleNode, instances: StateInstance[], ctx: EvaluationContext): Map<string, string> {
  const out = new Map<string, string>();
  if (movedAround(resource, node)) return out;
  const c = configured(resource, node, ctx);
  if (!c) return out;
  for (const inst of instances) {
    let mk: (IndexKey | undefined)[];
    try {
      mk = parseModulePath(inst.module).map((s) => s.key);
    } catch {
      continue;
    }
    const key = inst.indexKey;
    const candidates: (IndexKey | undefined)[] = [key];
    if (key === undefined && c.count) candidates.push(0);
    if (key === 0 && !c.count && !c.forEach) candidates.push(undefined);
    if (candidates.some((k) => c.keys.has(JSON.stringify([...mk, k])))) continue;
    out.set(inst.address, c.describe(mk));
  }
  return out;
}

/** `address` names `name` itself or one of its instances or (for a module) what is inside it. */
function names(address: string, name: string): boolean {
  return address === name || address.startsWith(`${name}[`) || address.startsWith(`${name}.`);
}

/**
 * A `moved` block names the resource (in its module) or a module call on its path: terraform may move a state
 * instance rather than destroy it, which is not read here, so nothing is claimed for that resource.
 */
function movedAround(resource: ConfigResource, node: ModuleNode): boolean {
  const local = `${resource.type}.${resource.name}`;
  if ((node.dir.moved ?? []).some((m) => names(m.from, local) || (m.to !== null && names(m.to, local)))) return true;
  for (let n: ModuleNode = node; n.parent && n.call; n = n.parent) {
    const call = `module.${n.call.name}`;
    if ((n.parent.dir.moved ?? []).some((m) => names(m.from, call) || (m.to !== null && names(m.to, call)))) return true;
  }
  return false;
}

/**
 * The reverse: the instances the configuration gives that no state instance of the resource is (a key added
 * to the tfvars and not applied yet), as addresses; empty when not known offline or a `moved` block may move
 * instances. `x` and `x[0]` stand for each other as in unconfiguredInstances.
 */
export function unappliedInstances(resource: ConfigResource, node: ModuleNode, instances: StateInstance[], ctx: EvaluationContext): string[] {
  if (movedAround(resource, node)) return [];
  const c = configured(resource, node, ctx);
  if (!c) return [];
  const inState = new Set<string>();
  for (const inst of instances) {
    let mk: (IndexKey | undefined)[];
    try {
      mk = parseModulePath(inst.module).map((s) => s.key);
    } catch {
      return [];
    }
    const key = inst.indexKey;
    inState.add(JSON.stringify([...mk, key]));
    if (key === undefined) inState.add(JSON.stringify([...mk, 0]));
    if (key === 0) inState.add(JSON.stringify([...mk, undefined]));
  }
  return [...c.keys].filter((k) => !inState.has(k)).map((k) => c.addresses.get(k)!).sort();
}
