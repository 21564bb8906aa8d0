// Turns the joined inventory into the core's domain inventory, one reader per resource type.
import type { DomainInventory } from "../../core/analyze.js";
import type { InputError, InventoryResource } from "../../core/model.js";
import { refOf } from "../../core/model.js";
import { LEGACY_DATA_SOURCES } from "../../core/legacy-types.js";
import { indexFilters, readFirewallRule, readPageRule } from "./firewall.js";
import { readGroup, readOverride, readPackage, readRule } from "./legacy-waf.js";
import { indexPackageKinds, packageKindOf } from "./package-kind.js";
import { readRuleset, readZone } from "./ruleset-zone.js";
import { readZoneWafSetting, ZONE_SETTING_TYPES } from "./zone-settings.js";

/** `forgotten`: what `removed` blocks with destroy = false forget (inventory/forgotten.ts). */
export function readDomain(resources: InventoryResource[], errors: InputError[], forgotten: string[] = []): DomainInventory {
  const of = (type: string) => resources.filter((r) => r.type === type);
  const packages = of("cloudflare_waf_package").map(readPackage);
  const kinds = indexPackageKinds(resources);
  const owaspPackageIds = new Set([...packages.filter((p) => p.kind === "owasp" && p.packageId).map((p) => p.packageId!), ...kinds.owaspPackageIds]);
  const filters = indexFilters(resources);
  return {
    packages,
    groups: of("cloudflare_waf_group").map((r) => readGroup(r, owaspPackageIds, packageKindOf(r, kinds))),
    rules: of("cloudflare_waf_rule").map((r) => readRule(r, owaspPackageIds, packageKindOf(r, kinds))),
    overrides: of("cloudflare_waf_override").map(readOverride),
    firewallRules: of("cloudflare_firewall_rule").map((r) => readFirewallRule(r, filters, errors)),
    pageRules: of("cloudflare_page_rule").map(readPageRule),
    rulesets: of("cloudflare_ruleset").map(readRuleset),
    // A zone block whose count/for_each gives no instance is no zone (it is listed for the certificate audit).
    zones: of("cloudflare_zone").filter((r) => !r.noInstances).map(readZone),
    legacyDataSources: resources.filter((r) => LEGACY_DATA_SOURCES.has(r.type)).map(refOf),
    zoneWafSettings: resources.filter((r) => ZONE_SETTING_TYPES.has(r.type)).flatMap((r) => readZoneWafSetting(r) ?? []),
    ...(forgotten.length ? { forgotten } : {}),
  };
}
