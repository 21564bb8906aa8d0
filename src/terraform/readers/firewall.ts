// cloudflare_firewall_rule (+ the cloudflare_filter it points at) and cloudflare_page_rule → core model.
import { firstBlock, expressionText, literalBool, literalNumber, literalString, literalStringList } from "../config/values.js";
import type { AttributeError } from "../hcl/attribute-position.js";
import { refOf, type FirewallRule, type InputError, type InventoryResource, type PageRule, type UnresolvedSetting } from "../../core/model.js";
import { INSTANCE_ATTRIBUTES, unresolvedSettings, withUnresolved, ZONE_ATTRIBUTES } from "./unresolved.js";

export interface FilterIndex {
  byId: Map<string, InventoryResource>;
  byConfigAddress: Map<string, InventoryResource>;
  /** Instance addresses of filters only config knows (`cloudflare_filter.f["a"]`). */
  byAddress: Map<string, InventoryResource>;
}

export function indexFilters(resources: InventoryResource[]): FilterIndex {
  const idx: FilterIndex = { byId: new Map(), byConfigAddress: new Map(), byAddress: new Map() };
  for (const r of resources) {
    if (r.type !== "cloudflare_filter") continue;
    const id = r.inState ? literalString(r.attributes.id) : null;
    if (id) idx.byId.set(id, r);
    if (!idx.byConfigAddress.has(r.configAddress)) idx.byConfigAddress.set(r.configAddress, r);
    idx.byAddress.set(r.address, r);
  }
  return idx;
}

export function readFirewallRule(r: InventoryResource, filters: FilterIndex, errors: InputError[]): FirewallRule {
  const a = r.attributes;
  const products = literalStringList(a.products);
  // `attribute` lets the workspace point the error at the value itself (attribute-position.ts).
  if (products.error) errors.push({ file: r.file ?? r.address, line: r.line, column: null, message: `${r.address}: products: ${products.error}`, attribute: "products" } as AttributeError);
  // v5 state keeps the filter inline: `filter = { id, expression, … }`.
  const inline = firstBlock(a.filter);
  const filter = findFilter(r, filters);
  const expression = literalString(inline?.expression) ?? (filter ? literalString(filter.attributes.expression) : null);
  const actionValue = a.action;
  const action = literalString(actionValue) ?? literalString(firstBlock(actionValue)?.mode);
  const unresolved: UnresolvedSetting[] = unresolvedSettings(r, ["action", "action.mode", "paused", ...(products.error ? [] : ["products"]), ...ZONE_ATTRIBUTES, ...INSTANCE_ATTRIBUTES]);
  // Products terraform rejects (`set("waf")`) are not known to leave the WAF out: the rule may bypass it
  // (core/unresolved.ts mayBypassWaf), so its skip rule is generated disabled and said so, never dropped.
  if (products.error) unresolved.push({ attribute: "products", expression: expressionText(a.products) ?? JSON.stringify(a.products), reason: `terraform rejects it: ${products.error}` });
  if (expression === null && !inline) unresolved.push(...filterExpressionUnresolved(r, filter));
  return {
    ref: refOf(r),
    action,
    products: products.values ?? [],
    expression: expression === null ? null : expression.trim(),
    filterAddress: filter?.address ?? null,
    description: literalString(a.description),
    paused: literalBool(a.paused),
    priority: literalNumber(a.priority),
    ...withUnresolved(unresolved),
  };
}

/** Why a config-only rule's filter expression is not known: the filter's own expression, or its reference. */
function filterExpressionUnresolved(r: InventoryResource, filter: InventoryResource | null): UnresolvedSetting[] {
  if (r.inState) return [];
  if (filter) {
    return unresolvedSettings(filter, ["expression"]).map((u) => ({ ...u, attribute: `filter (${filter.address}).expression` }));
  }
  const raw = r.configAttributes?.filter_id;
  if (raw === undefined) return [];
  const text = expressionText(raw) ?? String(raw);
  const own = r.unresolved?.find((u) => u.attribute === "filter_id" && !r.references?.filter_id);
  return [{ attribute: "filter_id", expression: text, reason: own?.reason ?? "the filter it names is not in the configuration read" }];
}

function findFilter(r: InventoryResource, filters: FilterIndex): InventoryResource | null {
  const id = literalString(r.attributes.filter_id);
  if (id && filters.byId.has(id)) return filters.byId.get(id)!;
  // Config: filter_id evaluated to a reference to a filter instance (`cloudflare_filter.f["a"].id`).
  const ref = r.inState ? undefined : r.references?.filter_id;
  const byRef = ref && /\.id$/.test(ref) ? filters.byAddress.get(ref.slice(0, -3)) : undefined;
  if (byRef) return byRef;
  // Config: filter_id = cloudflare_filter.<name>.id, in the same module; or cloudflare_filter.<name>[0].id
  // when the filter's count/for_each is not known offline (its one entry is then at its configuration address).
  const expr = expressionText(r.configAttributes?.filter_id ?? r.attributes.filter_id);
  const m = expr ? /^cloudflare_filter\.([A-Za-z_][A-Za-z0-9_-]*)(\[[^\]]*\])?\.id$/.exec(expr) : null;
  if (!m) return null;
  const prefix = r.configAddress.slice(0, r.configAddress.length - `cloudflare_firewall_rule.${r.name}`.length);
  const target = filters.byConfigAddress.get(`${prefix}cloudflare_filter.${m[1]}`) ?? null;
  if (!target) return null;
  if (m[2] !== undefined && target.address !== target.configAddress) return null;
  // With count/for_each on both sides, pair the instance with the same key.
  if (r.inState && target.inState) {
    const key = r.address.slice(r.configAddress.length);
    for (const f of filters.byId.values()) if (f.configAddress === target.configAddress && f.address.endsWith(key)) return f;
  }
  return target;
}

export function readPageRule(r: InventoryResource): PageRule {
  const a = r.attributes;
  const actions = firstBlock(a.actions) ?? {};
  const target = literalString(a.target) ?? readV3Targets(a);
  return {
    ref: refOf(r),
    target,
    disableSecurity: literalBool(actions.disable_security) === true,
    waf: normalizeOnOff(literalString(actions.waf)),
    status: literalString(a.status),
    priority: literalNumber(a.priority),
    ...withUnresolved(unresolvedSettings(r, ["actions.disable_security", "actions.waf", "target", "status", ...ZONE_ATTRIBUTES, ...INSTANCE_ATTRIBUTES])),
  };
}

/** Very old states (provider 1.x) kept `targets[].constraint.value`. */
function readV3Targets(a: Record<string, unknown>): string | null {
  const t = firstBlock(a.targets);
  const c = firstBlock(t?.constraint);
  return literalString(c?.value);
}

function normalizeOnOff(v: string | null): string | null {
  if (v === null || v === "") return null;
  return v.toLowerCase();
}
