// The data sources the double serves from the account: the legacy WAF listings (retired once a zone is
// migrated, like the resources) and cloudflare_zone. Each result is shaped by the schema, so the list
// attributes carry exactly the fields the real provider's schema declares.

import { RetiredApiError, type Account, type Zone } from "../account/account.js";
import type { CtyType, ResourceSchema } from "../schemas/types.js";
import { conformBlock, conformType, isObject, type ObjectValue, type Value } from "./cty.js";
import { UserError } from "./resources.js";

const LISTINGS: Record<string, { attribute: string; what: string; items: (zone: Zone) => Record<string, unknown>[]; regexFields: string[] }> = {
  cloudflare_waf_packages: { attribute: "packages", what: "WAF packages", items: (z) => (z.waf?.packages ?? []) as never, regexFields: ["name"] },
  cloudflare_waf_groups: { attribute: "groups", what: "WAF groups", items: (z) => (z.waf?.groups ?? []) as never, regexFields: ["name"] },
  cloudflare_waf_rules: {
    attribute: "rules",
    what: "WAF rules",
    items: (z) =>
      (z.waf?.rules ?? []).map((r) => ({ ...r, group_name: z.waf?.groups?.find((g) => g.id === r.group_id)?.name })) as never,
    regexFields: ["description"],
  },
};

export function readDataSource(account: Account, typeName: string, schema: ResourceSchema, config: ObjectValue): ObjectValue {
  const out = conformBlock(config, schema.block) as ObjectValue;
  const listing = LISTINGS[typeName];
  if (listing) {
    const zoneId = typeof config.zone_id === "string" ? config.zone_id : "";
    const zone = account.zones[zoneId];
    if (!zone) throw new UserError(`error listing ${listing.what}: HTTP status 404: zone ${zoneId} not found`);
    if (zone.migrated) throw new RetiredApiError(zoneId, listing.what);
    const filter = Array.isArray(config.filter) && isObject(config.filter[0]) ? config.filter[0] : null;
    const packageId = typeof config.package_id === "string" ? config.package_id : null;
    const attr = schema.block.attributes[listing.attribute];
    if (!attr) throw new UserError(`${typeName}: schema has no ${listing.attribute} attribute`);
    const elemType = (attr.type as [string, CtyType])[1];
    const items = listing.items(zone).filter((item) => (packageId ? item.package_id === packageId : true) && matches(filter, item, listing.regexFields));
    out[listing.attribute] = items.map((item) => conformType(item as Value, elemType));
    out.id = out.id ?? `${zoneId}/${listing.attribute}`;
    return out;
  }
  if (typeName === "cloudflare_zone") {
    const byId = typeof config.zone_id === "string" ? account.zones[config.zone_id] : undefined;
    const byName = typeof config.name === "string" ? Object.values(account.zones).find((z) => z.name === config.name) : undefined;
    const zone = byId ?? byName;
    if (!zone) throw new UserError(`error listing zones: no zone found (zone_id ${String(config.zone_id)}, name ${String(config.name)})`);
    const known: ObjectValue = {
      id: zone.id,
      zone_id: zone.id,
      name: zone.name,
      plan: zone.plan,
      status: zone.status ?? "active",
      paused: zone.paused ?? false,
      name_servers: [`${zone.name.split(".")[0]}-ns1.ns.cloudflare.com`, `${zone.name.split(".")[0]}-ns2.ns.cloudflare.com`],
      vanity_name_servers: [],
    };
    for (const name of Object.keys(schema.block.attributes)) if (out[name] === null && name in known) out[name] = known[name]!;
    return out;
  }
  throw new UserError(`data source ${typeName} is not simulated by the provider double`);
}

function matches(filter: ObjectValue | null, item: Record<string, unknown>, regexFields: string[]): boolean {
  if (!filter) return true;
  for (const [key, want] of Object.entries(filter)) {
    if (want === null || want === undefined) continue;
    const have = item[key];
    if (regexFields.includes(key)) {
      if (typeof have !== "string" || !new RegExp(String(want)).test(have)) return false;
    } else if (String(have) !== String(want)) return false;
  }
  return true;
}
