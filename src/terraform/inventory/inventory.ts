// Joins configuration and state into the inventory: one entry per resource instance state knows, or per
// configuration resource when only config knows it, each with its file, line and zone id.
import { CERTIFICATE_BLOCK_TYPES, LEGACY_WAF_RESOURCE_TYPES, isRelevant } from "../../core/legacy-types.js";
import type { InventoryResource, UnresolvedAttribute } from "../../core/model.js";
import type { ConfigResource } from "../config/load.js";
import type { ConfigTree, ModuleNode } from "../config/modules.js";
import { resolveBody } from "../../core/tf-expr/body.js";
import { Unknown } from "../../core/tf-expr/values.js";
import { EvaluationContext, keySuffix, stringOrReference, type Expansion, type InstanceBinding, type ModuleInstance } from "../config/resolve.js";
import type { StateInstance, StateRead } from "../state/read.js";
import { expressionText, literalString } from "../config/values.js";
import { unresolvedZoneExpression } from "./zone-expression.js";
import { unappliedInstances, unconfiguredInstances } from "./configured-instances.js";

interface ConfigEntry {
  resource: ConfigResource;
  node: ModuleNode;
  configAddress: string;
}

export function configAddressFor(node: ModuleNode, r: { mode: "managed" | "data"; type: string; name: string }): string {
  const local = `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
  return node.path ? `${node.path}.${local}` : local;
}

export function buildInventory(tree: ConfigTree, states: StateRead[], ctx?: EvaluationContext): InventoryResource[] {
  const evaluation = ctx ?? new EvaluationContext(tree.roots, tree.nodes, () => ({}), (abs) => abs);
  const config = new Map<string, ConfigEntry>();
  for (const node of tree.nodes) {
    for (const r of node.dir.resources) {
      if (!isRelevant(r.mode, r.type)) continue;
      const configAddress = configAddressFor(node, r);
      // The same address from two roots (two stacks calling one module): the first one wins the join.
      if (!config.has(configAddress)) config.set(configAddress, { resource: r, node, configAddress });
    }
  }

  const stateByConfig = new Map<string, StateInstance[]>();
  const stateByAddress = new Map<string, StateInstance>();
  const allInstances: StateInstance[] = [];
  for (const s of states) {
    for (const inst of s.instances) {
      if (!isRelevant(inst.mode, inst.type)) continue;
      allInstances.push(inst);
      const list = stateByConfig.get(inst.configAddress) ?? [];
      list.push(inst);
      stateByConfig.set(inst.configAddress, list);
      if (!stateByAddress.has(inst.address)) stateByAddress.set(inst.address, inst);
    }
  }
  const stateLookup = (configAddress: string) => stateByConfig.get(configAddress) ?? [];
  const zones: ZoneLookup = { stateByAddress, stateLookup };

  // State instances of a configured legacy resource that its count/for_each (or its module's) no longer gives.
  const unconfigured = new Map<string, string>();
  // And the reverse, by resource: configured instances state lacks (told once, on its first state instance).
  const unapplied = new Map<string, string[]>();
  for (const [configAddress, list] of stateByConfig) {
    const entry = config.get(configAddress);
    if (!entry || !LEGACY_WAF_RESOURCE_TYPES.has(entry.resource.type) || entry.resource.mode !== "managed") continue;
    for (const [address, reason] of unconfiguredInstances(entry.resource, entry.node, list, evaluation)) unconfigured.set(address, reason);
    const notApplied = unappliedInstances(entry.resource, entry.node, list, evaluation);
    if (notApplied.length) unapplied.set(configAddress, notApplied);
  }

  const out: InventoryResource[] = [];
  const seenAddresses = new Set<string>();
  for (const inst of allInstances) {
    if (seenAddresses.has(inst.address)) continue; // the same state given twice
    seenAddresses.add(inst.address);
    const entry = config.get(inst.configAddress) ?? null;
    const zoneIdExpression = entry ? zoneExpressionOf(entry.resource.body) : null;
    // A resource of a remote module has no block we read: the module call is where a person looks.
    const remote = entry ? null : tree.remoteModules.find((m) => inst.configAddress.startsWith(`${m.path}.`));
    // Told on the resource's first state instance only: taken out of the map once told.
    const notYetTold = unapplied.get(inst.configAddress);
    unapplied.delete(inst.configAddress);
    out.push({
      address: inst.address,
      configAddress: inst.configAddress,
      type: inst.type,
      name: inst.name,
      module: inst.module,
      file: entry?.resource.file ?? remote?.file ?? null,
      line: entry?.resource.line ?? remote?.line ?? null,
      zoneId: stateZoneId(inst) ?? (entry ? configZoneId(entry, evaluation, zones) : null),
      zoneIdExpression,
      inConfig: entry !== null,
      inState: true,
      attributes: inst.attributes,
      configAttributes: entry?.resource.body ?? null,
      ...(unconfigured.has(inst.address) ? { unconfigured: unconfigured.get(inst.address)! } : {}),
      ...(notYetTold !== undefined ? { unapplied: notYetTold } : {}),
    });
  }
  for (const entry of config.values()) {
    if (stateByConfig.has(entry.configAddress)) continue;
    out.push(...configInstances(entry, evaluation, zones));
  }
  return out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

interface ZoneLookup {
  stateByAddress: Map<string, StateInstance>;
  stateLookup: (configAddress: string) => StateInstance[];
}

/** Arguments that are not attributes of the resource (or that only make sense per instance at apply). */
const NOT_ATTRIBUTES = new Set(["count", "for_each", "depends_on", "lifecycle", "provider", "provisioner", "connection", "dynamic"]);

/**
 * The instances a configuration-only resource has: one per module instance and per `count`/`for_each` key
 * when they are known offline (addressed as `terraform state list` would print them), each with its
 * attributes evaluated; otherwise one entry at the configuration address, as before evaluation existed.
 */
function configInstances(entry: ConfigEntry, ctx: EvaluationContext, zones: ZoneLookup): InventoryResource[] {
  const r = entry.resource;
  const local = `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
  const multi = "count" in r.body || "for_each" in r.body;
  const out: InventoryResource[] = [];
  const one = (address: string, mi: ModuleInstance, binding: InstanceBinding, flags: Partial<InventoryResource>): InventoryResource => {
    const { attributes, unresolved, references } = resolveBody(r.body, ctx.scope(mi, binding), NOT_ATTRIBUTES);
    return {
      address,
      configAddress: entry.configAddress,
      type: r.type,
      name: r.name,
      module: mi.path,
      file: r.file,
      line: r.line,
      zoneId: instanceZoneId(r.type, address, attributes, references, zones) ?? configZoneId(entry, ctx, zones, mi, binding),
      zoneIdExpression: zoneExpressionOf(r.body),
      inConfig: true,
      inState: false,
      ...flags,
      attributes,
      configAttributes: r.body,
      ...(unresolved.length ? { unresolved } : {}),
      ...(Object.keys(references).length ? { references: { ...references } } : {}),
    };
  };
  const instances = ctx.moduleInstances(entry.node);
  for (const mi of instances) {
    const exp: Expansion = mi.keysKnown ? ctx.expand(r.body.count, r.body.for_each, mi, { file: r.file, line: r.line, address: entry.configAddress }) : { instances: null };
    if (exp.invalid) {
      // Terraform rejects the value (an input error says so, at the argument): listed once at the configuration
      // address, with nothing reported unknown, since nothing here waits for a plan.
      const unknown = new Unknown(`terraform rejects the ${"for_each" in r.body ? "for_each" : "count"} of ${local}`);
      const binding: InstanceBinding = "for_each" in r.body ? { each: { key: unknown, value: unknown } } : { count: unknown };
      const { unresolved: _u, ...entryOf } = one(entry.configAddress, mi, binding, { mayHaveNoInstances: true });
      out.push(entryOf);
      break;
    }
    if (!exp.instances) {
      // Keys unknown: one entry at the configuration address (no removal command can name the instances).
      const unknown = new Unknown(`the instances of ${local} are not known offline${exp.reason ? ` (${exp.reason})` : ""}`);
      const binding: InstanceBinding = "for_each" in r.body ? { each: { key: unknown, value: unknown } } : "count" in r.body ? { count: unknown } : {};
      const entryOf = one(entry.configAddress, mi, binding, {
        ...(!mi.keysKnown ? { instancesUnknown: true } : {}),
        ...(!mi.keysKnown || multi ? { mayHaveNoInstances: true } : {}),
      });
      // The block's own count/for_each is what is unknown: whether it configures anything at all (it may have
      // no instance) is itself a value the migration needs, reported like any other (never taken as one).
      // So is an enclosing module call's (`module "waf" { count = var.waf_enabled ? 1 : 0 }`).
      const instancesUnknown = mi.keysKnown ? (multi ? ownInstancesUnknown(r.body, exp.reason) : null) : moduleInstancesUnknown(mi);
      if (instancesUnknown) entryOf.unresolved = [instancesUnknown, ...(entryOf.unresolved ?? [])];
      out.push(entryOf);
      break;
    }
    const base = mi.path ? `${mi.path}.${local}` : local;
    for (const i of exp.instances) {
      out.push(one(base + keySuffix(i.key), mi, i.binding, multi || mi.path !== entry.node.path ? { mayHaveNoInstances: true } : {}));
    }
  }
  // Known to have no instance at all: a legacy block still has to go, so it stays listed, without state to remove;
  // a certificate block (or a zone: its Universal certificate) stays listed too, so the certificate audit can say
  // it is there and needs nothing.
  if (out.length === 0 && (LEGACY_WAF_RESOURCE_TYPES.has(r.type) || (r.mode === "managed" && (CERTIFICATE_BLOCK_TYPES.has(r.type) || r.type === "cloudflare_zone")))) {
    const mi = instances[0];
    if (mi && LEGACY_WAF_RESOURCE_TYPES.has(r.type)) out.push(one(entry.configAddress, mi, {}, { mayHaveNoInstances: true, noInstances: true }));
    // A module called with for_each = {} / count = 0: no instance to evaluate the block in, but it is still there.
    // A certificate block of no instance: nothing of it is evaluated either (it configures nothing).
    else out.push(withoutInstance(entry));
  }
  return out;
}

/** The block's own count/for_each, not known offline, as an unresolved attribute. */
function ownInstancesUnknown(body: Record<string, unknown>, reason: string | undefined): UnresolvedAttribute {
  const attribute = "for_each" in body ? "for_each" : "count";
  return { attribute, expression: expressionText(body[attribute]) ?? JSON.stringify(body[attribute]), reason: reason ?? "its value is not known offline" };
}

/**
 * The outermost enclosing module call whose count/for_each is not known offline, as an unresolved attribute
 * of the block (its reason names the module): whether the block has any instance depends on it.
 */
function moduleInstancesUnknown(mi: ModuleInstance): UnresolvedAttribute | null {
  let outer: ModuleInstance | null = null;
  for (let m: ModuleInstance | null = mi; m !== null && !m.keysKnown; m = m.parent) outer = m;
  const call = outer?.node.call;
  if (!outer || !call) return null;
  const attribute = call.forEach !== undefined ? "for_each" : call.count !== undefined ? "count" : null;
  if (attribute === null) return null;
  const raw = attribute === "for_each" ? call.forEach : call.count;
  const bound = attribute === "for_each" ? outer.binding.each?.key : outer.binding.count;
  return {
    attribute,
    expression: expressionText(raw) ?? JSON.stringify(raw),
    reason: bound instanceof Unknown ? bound.reason : `the instances of module.${call.name} are not known offline`,
  };
}

/**
 * A block listed though it has no instance (a legacy block of a module that has none, or a certificate block
 * whose count/for_each gives none): nothing evaluated, no zone.
 */
function withoutInstance(entry: ConfigEntry): InventoryResource {
  const r = entry.resource;
  return {
    address: entry.configAddress,
    configAddress: entry.configAddress,
    type: r.type,
    name: r.name,
    module: entry.node.path,
    file: r.file,
    line: r.line,
    zoneId: null,
    zoneIdExpression: zoneExpressionOf(r.body),
    inConfig: true,
    inState: false,
    mayHaveNoInstances: true,
    noInstances: true,
    attributes: {},
    configAttributes: r.body,
  };
}

function stateZoneId(inst: StateInstance): string | null {
  // A zone's own id is its zone id; everything else carries zone_id.
  const v = inst.type === "cloudflare_zone" ? inst.attributes.id : inst.attributes.zone_id;
  return typeof v === "string" && v !== "" ? v : null;
}

function zoneExpressionOf(body: Record<string, unknown>): string | null {
  const v = body.zone_id ?? body.zone;
  if (v === undefined) return null;
  return expressionText(v) ?? (typeof v === "string" ? JSON.stringify(v) : null);
}

/**
 * The zone of one evaluated instance: a literal id; or, for a reference to a zone resource, its id in state,
 * else the reference itself (`cloudflare_zone.z["shop"].id`), which names the same zone wherever it is
 * written; a zone resource is known by its own reference. null when the value is not known offline.
 */
function instanceZoneId(type: string, address: string, attributes: Record<string, unknown>, references: Record<string, string>, zones: ZoneLookup): string | null {
  if (type === "cloudflare_zone") return `${address}.id`;
  const key = "zone_id" in attributes ? "zone_id" : "zone" in attributes ? "zone" : null;
  if (key === null) return null;
  const lit = literalString(attributes[key]);
  if (lit !== null) return lit;
  const ref = references[key];
  return ref ? zoneOfReference(ref, zones) : null;
}

/** `cloudflare_zone.z["a"].id` → the id state holds for that instance, else the reference. */
function zoneOfReference(ref: string, zones: ZoneLookup): string {
  const m = /^(.*)\.id$/.exec(ref);
  if (m) {
    const inst = zones.stateByAddress.get(m[1]!);
    if (inst && typeof inst.attributes.id === "string" && inst.attributes.id !== "") return inst.attributes.id;
    // An unkeyed reference to a resource state holds once (as before evaluation existed).
    const only = zones.stateLookup(m[1]!);
    if (only.length === 1 && typeof only[0]!.attributes.id === "string") return only[0]!.attributes.id;
  }
  return ref;
}

/** The literal zone id, or what evaluation resolves, or the expression text. */
function configZoneId(entry: ConfigEntry, ctx: EvaluationContext, zones: ZoneLookup, at?: ModuleInstance, binding: InstanceBinding = {}): string | null {
  const body = entry.resource.body;
  // A zone not yet in state is known by the reference other resources use for it.
  if (entry.resource.type === "cloudflare_zone") return `${entry.configAddress}.id`;
  // Provider 1.x/2.x resources named the zone by its domain (`zone = "example.com"`) instead of zone_id.
  const v = body.zone_id ?? body.zone;
  if (v === undefined) return null;
  const lit = literalString(v);
  if (lit !== null) return lit;
  const mi = at ?? ctx.moduleInstances(entry.node)[0];
  if (mi) {
    const resolved = stringOrReference(ctx.value(v, mi, binding));
    if (resolved) return "literal" in resolved ? resolved.literal : zoneOfReference(resolved.reference, zones);
  }
  // Only for a config instance (`at` given): a state instance has no binding to write the expression with.
  return unresolvedZoneExpression(v, at, binding, body.for_each);
}
