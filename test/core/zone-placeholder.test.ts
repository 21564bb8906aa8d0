// The zone id hints for expressions a module instance holds: which lookup, which module, which expression.
import { describe, expect, it } from "vitest";
import { zoneLookupOf } from "../../src/core/import-id.js";
import { unknownZoneHint } from "../../src/core/zone-placeholder.js";

const CASES: [string, ReturnType<typeof zoneLookupOf>, string][] = [
  ["module.shop.data.cloudflare_zone.this.id", {"lookup":"data.cloudflare_zone.this","module":"module.shop"}, "the zone id is looked up by data.cloudflare_zone.this inside module.shop when terraform plans, so it is not known offline and no --var-file/--var sets it: pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or look the id up (GET /zones?name=<the zone's domain>) and put it where <ZONE_ID> stands"],
  ["module.waf[\"eu\"].module.inner[0].data.cloudflare_zones.z[\"a\"].zones[0].id", {"lookup":"data.cloudflare_zones.z[\"a\"]","module":"module.waf[\"eu\"].module.inner[0]"}, "the zone id is looked up by data.cloudflare_zones.z[\"a\"] inside module.waf[\"eu\"].module.inner[0] when terraform plans, so it is not known offline and no --var-file/--var sets it: pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or look the id up (GET /zones?name=<the zone's domain>) and put it where <ZONE_ID> stands"],
  ["module.data.data.cloudflare_zone.x.id", {"lookup":"data.cloudflare_zone.x","module":"module.data"}, "the zone id is looked up by data.cloudflare_zone.x inside module.data when terraform plans, so it is not known offline and no --var-file/--var sets it: pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or look the id up (GET /zones?name=<the zone's domain>) and put it where <ZONE_ID> stands"],
  ["data.cloudflare_zone.this.id", {"lookup":"data.cloudflare_zone.this","module":null}, "the zone id is looked up by data.cloudflare_zone.this (`data.cloudflare_zone.this.id`) when terraform plans, so it is not known offline and no --var-file/--var sets it: pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or look the id up (GET /zones?name=<the zone's domain>) and put it where <ZONE_ID> stands"],
  ["module.shop.local.zone_id", null, "the zone id is not known offline (it is the expression `local.zone_id` inside module.shop): set what it depends on with --var-file/--var, or pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or put the zone's id where <ZONE_ID> stands"],
  ["module.waf[\"a\"].var.zone", null, "the zone id is not known offline (it is the expression `var.zone` inside module.waf[\"a\"]): set what it depends on with --var-file/--var, or pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or put the zone's id where <ZONE_ID> stands"],
  ["module.a.module.b.local.x", null, "the zone id is not known offline (it is the expression `local.x` inside module.a.module.b): set what it depends on with --var-file/--var, or pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or put the zone's id where <ZONE_ID> stands"],
  ["var.zone_id", null, "the zone id is not known offline (it is the expression `var.zone_id`): set what it depends on with --var-file/--var, or pass the root's state with --state (`terraform state pull > state.json`) so it is read from there, or put the zone's id where <ZONE_ID> stands"],
];

describe("zone id expressions inside modules", () => {
  it.each(CASES)("%s", (zoneId, lookup, hint) => {
    expect(zoneLookupOf(zoneId)).toEqual(lookup);
    expect(unknownZoneHint(zoneId)).toBe(hint);
  });
});
