// Joins configuration and state into the inventory: one entry per resource instance state knows, or per
// configuration resource when only config knows it, each with its file, line and zone id.
import type { InventoryResource } from "../core/model.js";
import type { ConfigResource } from "./config.js";
import type { ConfigTree, ModuleNode } from "./modules.js";
import { resolveValue } from "./resolve.js";
import type { StateInstance, StateRead } from "./state.js";
import { expressionText, literalString } from "./values.js";

/** The resource types the tool reads. Everything else in a tree is skipped. */
export const RELEVANT_TYPES = new Set([
  "cloudflare_waf_package",
  "cloudflare_waf_group",
  "cloudflare_waf_rule",
  "cloudflare_waf_override",
  "cloudflare_firewall_rule",
  "cloudflare_filter",
  "cloudflare_page_rule",
  "cloudflare_zone",
  "cloudflare_ruleset",
  "cloudflare_certificate_pack",
  "cloudflare_total_tls",
  "cloudflare_custom_hostname",
  "cloudflare_custom_ssl",
  // The previous WAF's zone-wide switch (`waf` setting): provider 3/4 and provider 5 spellings.
  "cloudflare_zone_settings_override",
  "cloudflare_zone_setting",
]);

/** Legacy WAF data sources, removed from the provider together with the resources. */
export const LEGACY_DATA_SOURCES = new Set(["cloudflare_waf_packages", "cloudflare_waf_groups", "cloudflare_waf_rules"]);

export function isRelevant(mode: "managed" | "data", type: string): boolean {
  return mode === "managed" ? RELEVANT_TYPES.has(type) : LEGACY_DATA_SOURCES.has(type);
}

interface ConfigEntry {
  resource: ConfigResource;
  node: ModuleNode;
  configAddress: string;
}

export function configAddressFor(node: ModuleNode, r: { mode: "managed" | "data"; type: string; name: string }): string {
  const local = `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
  return node.path ? `${node.path}.${local}` : local;
}

export function buildInventory(tree: ConfigTree, states: StateRead[]): InventoryResource[] {
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
  const allInstances: StateInstance[] = [];
  for (const s of states) {
    for (const inst of s.instances) {
      if (!isRelevant(inst.mode, inst.type)) continue;
      allInstances.push(inst);
      const list = stateByConfig.get(inst.configAddress) ?? [];
      list.push(inst);
      stateByConfig.set(inst.configAddress, list);
    }
  }
  const stateLookup = (configAddress: string) => stateByConfig.get(configAddress) ?? [];

  const out: InventoryResource[] = [];
  const seenAddresses = new Set<string>();
  for (const inst of allInstances) {
    if (seenAddresses.has(inst.address)) continue; // the same state given twice
    seenAddresses.add(inst.address);
    const entry = config.get(inst.configAddress) ?? null;
    const zoneIdExpression = entry ? zoneExpressionOf(entry.resource.body) : null;
    // A resource of a remote module has no block we read: the module call is where a person looks.
    const remote = entry ? null : tree.remoteModules.find((m) => inst.configAddress.startsWith(`${m.path}.`));
    out.push({
      address: inst.address,
      configAddress: inst.configAddress,
      type: inst.type,
      name: inst.name,
      module: inst.module,
      file: entry?.resource.file ?? remote?.file ?? null,
      line: entry?.resource.line ?? remote?.line ?? null,
      zoneId: stateZoneId(inst) ?? (entry ? configZoneId(entry, stateLookup) : null),
      zoneIdExpression,
      inConfig: entry !== null,
      inState: true,
      attributes: inst.attributes,
      configAttributes: entry?.resource.body ?? null,
    });
  }
  for (const entry of config.values()) {
    if (stateByConfig.has(entry.configAddress)) continue;
    const r = entry.resource;
    out.push({
      address: entry.configAddress,
      configAddress: entry.configAddress,
      type: r.type,
      name: r.name,
      module: entry.node.path,
      file: r.file,
      line: r.line,
      zoneId: configZoneId(entry, stateLookup),
      zoneIdExpression: zoneExpressionOf(r.body),
      inConfig: true,
      inState: false,
      ...(underMultiInstanceModule(entry.node) ? { instancesUnknown: true } : {}),
      ...(underMultiInstanceModule(entry.node) || "count" in r.body || "for_each" in r.body ? { mayHaveNoInstances: true } : {}),
      attributes: r.body,
      configAttributes: r.body,
    });
  }
  return out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
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

/** The literal zone id, or what light evaluation resolves, or the expression text. */
function configZoneId(entry: ConfigEntry, stateLookup: (configAddress: string) => StateInstance[]): string | null {
  const body = entry.resource.body;
  // A zone not yet in state is known by the reference other resources use for it.
  if (entry.resource.type === "cloudflare_zone") return `${entry.configAddress}.id`;
  // Provider 1.x/2.x resources named the zone by its domain (`zone = "example.com"`) instead of zone_id.
  const v = body.zone_id ?? body.zone;
  if (v === undefined) return null;
  const lit = literalString(v);
  if (lit !== null) return lit;
  const resolved = resolveValue(v, entry.node, stateLookup);
  if (resolved) return "literal" in resolved ? resolved.literal : resolved.reference;
  return expressionText(v) ?? (typeof v === "string" ? v : null);
}

/** Instance keys of a config-only resource are unknowable when an enclosing module has count/for_each. */
function underMultiInstanceModule(node: ModuleNode): boolean {
  for (let n: ModuleNode | null = node; n; n = n.parent) {
    if (n.call && (n.call.count !== undefined || n.call.forEach !== undefined)) return true;
  }
  return false;
}
