// Readers of the settings the migration touches: the zone's previous-WAF switch in both provider syntaxes
// (config and state shapes), the package a group belongs to from the Terraform around it, and where an
// attribute's value starts (for one-line errors with file:line:column).
import { describe, expect, it } from "vitest";
import type { InventoryResource } from "../../src/core/model.js";
import { findAttribute } from "../../src/terraform/hcl/attribute-position.js";
import { indexPackageKinds, packageKindOf } from "../../src/terraform/readers/package-kind.js";
import { readGroup } from "../../src/terraform/readers/legacy-waf.js";
import { readZoneWafSetting } from "../../src/terraform/readers/zone-settings.js";

const Z = "0da42c8d2132a9ddaf714f9e7c920711";

function res(type: string, name: string, attributes: Record<string, unknown>, over: Partial<InventoryResource> = {}): InventoryResource {
  const data = type.startsWith("cloudflare_waf_") && type.endsWith("s");
  const address = `${data ? "data." : ""}${type}.${name}`;
  return {
    address,
    configAddress: address,
    type,
    name,
    module: "",
    file: "main.tf",
    line: 3,
    zoneId: Z,
    zoneIdExpression: null,
    inConfig: true,
    inState: false,
    attributes,
    configAttributes: attributes,
    ...over,
  };
}

describe("readZoneWafSetting", () => {
  it("provider 3/4 settings override: config block, state list; initial_settings is not the intent", () => {
    const config = res("cloudflare_zone_settings_override", "z", { zone_id: Z, settings: [{ always_use_https: "on", waf: "off" }] });
    expect(readZoneWafSetting(config)).toMatchObject({ value: "off", expression: null });
    const state = res("cloudflare_zone_settings_override", "z", { zone_id: Z, settings: [{ waf: "on" }], initial_settings: [{ waf: "off" }] }, { inState: true, inConfig: false });
    expect(readZoneWafSetting(state)).toMatchObject({ value: "on" });
    // No waf in the settings: nothing to say.
    expect(readZoneWafSetting(res("cloudflare_zone_settings_override", "z", { settings: [{ http2: "on" }] }))).toBeNull();
  });

  it("provider 5 cloudflare_zone_setting: config, a state file's dynamic value, show -json's plain value", () => {
    expect(readZoneWafSetting(res("cloudflare_zone_setting", "waf", { zone_id: Z, setting_id: "waf", value: "off" }))).toMatchObject({ value: "off" });
    expect(readZoneWafSetting(res("cloudflare_zone_setting", "waf", { id: "waf", setting_id: "waf", value: { value: "off", type: "string" } }, { inState: true }))).toMatchObject({ value: "off" });
    expect(readZoneWafSetting(res("cloudflare_zone_setting", "waf", { setting_id: "waf", value: "ON" }))).toMatchObject({ value: "on" });
    // Another setting, or a setting id only known at plan time: not claimed as the WAF switch.
    expect(readZoneWafSetting(res("cloudflare_zone_setting", "tls", { setting_id: "min_tls_version", value: "1.2" }))).toBeNull();
    expect(readZoneWafSetting(res("cloudflare_zone_setting", "all", { setting_id: "${each.key}", value: "${each.value}" }))).toBeNull();
  });

  it("an expression is kept as its text, never read as a value", () => {
    const r = readZoneWafSetting(res("cloudflare_zone_settings_override", "z", { settings: [{ waf: '${lookup(var.zone_settings, "waf", null)}' }] }));
    expect(r).toMatchObject({ value: null, expression: 'lookup(var.zone_settings, "waf", null)' });
  });
});

describe("packageKindOf: the package of a group whose package_id is an expression", () => {
  it("a reference to a cloudflare_waf_package is the OWASP package", () => {
    const group = res("cloudflare_waf_group", "bad_robots", { package_id: "${cloudflare_waf_package.owasp[0].id}", group_id: "x", mode: "off" });
    expect(packageKindOf(group, indexPackageKinds([group]))).toBe("owasp");
  });

  it("a packages data source filtered on OWASP (or anomaly) is OWASP; on the Cloudflare package it is Cloudflare; in the same module", () => {
    const owasp = res("cloudflare_waf_packages", "owasp", { zone_id: Z, filter: [{ name: "OWASP.*" }] }, { configAddress: "module.waf.data.cloudflare_waf_packages.owasp" });
    const managed = res("cloudflare_waf_packages", "managed", { filter: [{ detection_mode: "traditional" }] }, { configAddress: "module.waf.data.cloudflare_waf_packages.managed" });
    const inModule = (name: string, pkgExpr: string) =>
      res("cloudflare_waf_group", name, { package_id: pkgExpr, group_id: "g", mode: "off" }, { configAddress: `module.waf.cloudflare_waf_group.${name}` });
    const idx = indexPackageKinds([owasp, managed]);
    expect(packageKindOf(inModule("a", "${data.cloudflare_waf_packages.owasp.packages[0].id}"), idx)).toBe("owasp");
    expect(packageKindOf(inModule("b", "${data.cloudflare_waf_packages.managed.packages[0].id}"), idx)).toBe("cloudflare");
    // The same name at the root is another data source, not known here.
    expect(packageKindOf(res("cloudflare_waf_group", "c", { package_id: "${data.cloudflare_waf_packages.owasp.packages[0].id}" }), idx)).toBe("unknown");
  });

  it("state: packages a data source read tell a literal package id's kind", () => {
    const ds = res(
      "cloudflare_waf_packages",
      "all",
      { packages: [{ id: "1111aaaa1111aaaa1111aaaa1111aaaa", name: "OWASP ModSecurity Core Rule Set", detection_mode: "anomaly" }, { id: "2222bbbb2222bbbb2222bbbb2222bbbb", name: "CloudFlare", detection_mode: "traditional" }] },
      { inState: true },
    );
    const idx = indexPackageKinds([ds]);
    const group = (pkg: string) => res("cloudflare_waf_group", "g", { package_id: pkg, group_id: "x", mode: "off" }, { inState: true, configAttributes: null });
    expect(packageKindOf(group("1111aaaa1111aaaa1111aaaa1111aaaa"), idx)).toBe("owasp");
    expect(packageKindOf(group("2222bbbb2222bbbb2222bbbb2222bbbb"), idx)).toBe("cloudflare");
    expect(packageKindOf(group("3333cccc3333cccc3333cccc3333cccc"), idx)).toBe("unknown");
  });
});

describe("findAttribute", () => {
  const text = [
    'resource "cloudflare_firewall_rule" "ops" {',
    '  description = "products = here is not the attribute"',
    "  action {",
    '    products = ["nested"]',
    "  }",
    '  products    = set("waf")',
    "}",
    'resource "cloudflare_firewall_rule" "next" {',
    '  products = ["waf"]',
    "}",
  ];
  it("finds the block's own attribute value, not a nested block's or a string's, and never one of the next block", () => {
    expect(findAttribute(text, 1, "products")).toEqual({ line: 6, column: 17 });
    expect(findAttribute(text, 1, "paused")).toBeNull();
    expect(findAttribute(text, 8, "products")).toEqual({ line: 9, column: 14 });
  });
});

describe("legacy group mode", () => {
  it("unset, or null as terraform treats null, is the provider's default (on); an expression stays unknown", () => {
    const group = (mode: unknown) => readGroup(res("cloudflare_waf_group", "g", mode === undefined ? { group_id: "de677e5818985db1285d0e80225f06e5" } : { group_id: "de677e5818985db1285d0e80225f06e5", mode }), new Set()).mode;
    expect(group(undefined)).toBe("on");
    expect(group(null)).toBe("on");
    expect(group("off")).toBe("off");
    expect(group("${var.mode}")).toBeNull();
  });
});
