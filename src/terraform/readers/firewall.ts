// cloudflare_firewall_rule (+ the cloudflare_filter it points at) and cloudflare_page_rule → core model.
import { firstBlock, expressionText, literalBool, literalNumber, literalString, literalStringList } from "../values.js";
import type { AttributeError } from "../attribute-position.js";
import { refOf, type FirewallRule, type InputError, type InventoryResource, type PageRule } from "../../core/model.js";

export interface FilterIndex {
  byId: Map<string, InventoryResource>;
  byConfigAddress: Map<string, InventoryResource>;
}

export function indexFilters(resources: InventoryResource[]): FilterIndex {
  const idx: FilterIndex = { byId: new Map(), byConfigAddress: new Map() };
  for (const r of resources) {
    if (r.type !== "cloudflare_filter") continue;
    const id = r.inState ? literalString(r.attributes.id) : null;
    if (id) idx.byId.set(id, r);
    idx.byConfigAddress.set(r.configAddress, r);
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
  return {
    ref: refOf(r),
    action,
    products: products.values ?? [],
    expression: expression === null ? null : expression.trim(),
    filterAddress: filter?.address ?? null,
    description: literalString(a.description),
    paused: literalBool(a.paused),
    priority: literalNumber(a.priority),
  };
}

function findFilter(r: InventoryResource, filters: FilterIndex): InventoryResource | null {
  const id = literalString(r.attributes.filter_id);
  if (id && filters.byId.has(id)) return filters.byId.get(id)!;
  // Config: filter_id = cloudflare_filter.<name>.id, in the same module.
  const expr = expressionText(r.configAttributes?.filter_id ?? r.attributes.filter_id);
  const m = expr ? /^cloudflare_filter\.([A-Za-z_][A-Za-z0-9_-]*)\.id$/.exec(expr) : null;
  if (!m) return null;
  const prefix = r.configAddress.slice(0, r.configAddress.length - `cloudflare_firewall_rule.${r.name}`.length);
  const target = filters.byConfigAddress.get(`${prefix}cloudflare_filter.${m[1]}`) ?? null;
  if (!target) return null;
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
