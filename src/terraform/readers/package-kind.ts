// Which legacy package a group or rule belongs to, from what the Terraform around it says. Real package
// ids differ per zone, so a group whose package id is only an expression (`cloudflare_waf_package.owasp.id`,
// `data.cloudflare_waf_packages.owasp.packages[0].id`) used to be "unknown" and was reported as a managed
// override. Here the expression's target tells: every `cloudflare_waf_package` is the OWASP package (only it
// takes sensitivity and action_mode), and a packages/groups data source says which package it looks up by
// its filter (config) or by the packages it read (state: `detection_mode` "anomaly" is OWASP).
import type { InventoryResource, LegacyPackageKind } from "../../core/model.js";
import { expressionText, firstBlock, literalString } from "../config/values.js";

export interface PackageKindIndex {
  /** Package ids known to be OWASP: `cloudflare_waf_package` ids and OWASP packages read by data sources. */
  owaspPackageIds: Set<string>;
  /** Package ids known to be the Cloudflare (traditional) package, from data sources. */
  cloudflarePackageIds: Set<string>;
  /** Data sources (config address) by the package kind their filter selects. */
  dataSourceKinds: Map<string, LegacyPackageKind>;
}

export function indexPackageKinds(resources: InventoryResource[]): PackageKindIndex {
  const idx: PackageKindIndex = { owaspPackageIds: new Set(), cloudflarePackageIds: new Set(), dataSourceKinds: new Map() };
  for (const r of resources) {
    if (r.type === "cloudflare_waf_package") {
      const id = literalString(r.attributes.package_id);
      if (id) idx.owaspPackageIds.add(id);
    } else if (r.type === "cloudflare_waf_packages" || r.type === "cloudflare_waf_groups") {
      const filterKind = kindOfFilter(r.type, firstBlock((r.configAttributes ?? r.attributes).filter));
      if (filterKind !== "unknown") idx.dataSourceKinds.set(r.configAddress, filterKind);
      if (r.inState) addReadPackages(r, idx);
    }
  }
  return idx;
}

/** What the group's or rule's `package_id` (or a group's `group_id` lookup) says about its package. */
export function packageKindOf(r: InventoryResource, idx: PackageKindIndex): LegacyPackageKind {
  const literal = literalString(r.attributes.package_id);
  if (literal && idx.owaspPackageIds.has(literal)) return "owasp";
  if (literal && idx.cloudflarePackageIds.has(literal)) return "cloudflare";
  const config = r.configAttributes ?? {};
  for (const attr of ["package_id", "group_id"]) {
    const expr = expressionText(config[attr]);
    if (!expr) continue;
    if (attr === "package_id" && /(?<![\w.])cloudflare_waf_package\.[A-Za-z_][\w-]*/.test(expr)) return "owasp";
    const ds = /(?<![\w])data\.(cloudflare_waf_packages|cloudflare_waf_groups)\.([A-Za-z_][\w-]*)/.exec(expr);
    if (ds) {
      const kind = idx.dataSourceKinds.get(`${modulePrefix(r)}data.${ds[1]}.${ds[2]}`);
      if (kind) return kind;
    }
  }
  return "unknown";
}

/** `filter { name = "OWASP.*" }`, `filter { detection_mode = "anomaly" }` and the like. */
function kindOfFilter(type: string, filter: Record<string, unknown> | null): LegacyPackageKind {
  if (!filter) return "unknown";
  const mode = literalString(filter.detection_mode)?.toLowerCase();
  if (type === "cloudflare_waf_packages" && mode === "anomaly") return "owasp";
  if (type === "cloudflare_waf_packages" && mode === "traditional") return "cloudflare";
  const name = literalString(filter.name) ?? "";
  if (/owasp/i.test(name)) return "owasp";
  if (type === "cloudflare_waf_packages" && /cloudflare/i.test(name)) return "cloudflare";
  return "unknown";
}

/** State of a data source: the packages (or groups) it read, each with a name or detection mode. */
function addReadPackages(r: InventoryResource, idx: PackageKindIndex): void {
  const items = r.type === "cloudflare_waf_packages" ? r.attributes.packages : r.attributes.groups;
  if (!Array.isArray(items)) return;
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    const o = item as Record<string, unknown>;
    const id = literalString(r.type === "cloudflare_waf_packages" ? o.id : o.package_id);
    if (!id) continue;
    const mode = literalString(o.detection_mode)?.toLowerCase();
    const name = literalString(o.name) ?? "";
    if (mode === "anomaly" || /owasp/i.test(name)) idx.owaspPackageIds.add(id);
    else if (r.type === "cloudflare_waf_packages" && (mode === "traditional" || /cloudflare/i.test(name))) idx.cloudflarePackageIds.add(id);
  }
}

function modulePrefix(r: InventoryResource): string {
  const local = `${r.type}.${r.name}`;
  return r.configAddress.slice(0, r.configAddress.length - local.length);
}
