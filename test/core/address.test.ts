import { describe, expect, it } from "vitest";
import { configAddressOf, formatAddress, parseAddress, parseModulePath, quoteHclString } from "../../src/core/address.js";

describe("Terraform addresses", () => {
  it.each([
    ["cloudflare_waf_rule.r[0]", { modules: [], mode: "managed", type: "cloudflare_waf_rule", name: "r", key: 0 }],
    ['cloudflare_waf_rule.r["100015"]', { modules: [], mode: "managed", type: "cloudflare_waf_rule", name: "r", key: "100015" }],
    [
      'module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]',
      { modules: [{ name: "waf", key: "shop" }], mode: "managed", type: "cloudflare_waf_group", name: "off", key: "de677e5818985db1285d0e80225f06e5" },
    ],
    ["module.a.module.b[2].data.cloudflare_waf_packages.p", { modules: [{ name: "a" }, { name: "b", key: 2 }], mode: "data", type: "cloudflare_waf_packages", name: "p" }],
    ['cloudflare_waf_rule.waf_rule_URI-958000', { modules: [], mode: "managed", type: "cloudflare_waf_rule", name: "waf_rule_URI-958000" }],
  ])("parses and formats %s", (text, parsed) => {
    expect(parseAddress(text)).toEqual(parsed);
    expect(formatAddress(parseAddress(text))).toBe(text);
  });

  it("quotes string keys like Terraform: quotes, backslashes, template introducers, control characters", () => {
    expect(quoteHclString('a"b')).toBe('"a\\"b"');
    expect(quoteHclString("a\\b")).toBe('"a\\\\b"');
    expect(quoteHclString("${x}")).toBe('"$${x}"');
    expect(quoteHclString("%{x}")).toBe('"%%{x}"');
    expect(quoteHclString("$x")).toBe('"$x"');
    expect(quoteHclString("a\nb\tc")).toBe('"a\\nb\\tc"');
    expect(quoteHclString("\u0001")).toBe('"\\u0001"');
    expect(quoteHclString("héllo 🎉")).toBe('"héllo 🎉"');
  });

  it("round-trips awkward keys", () => {
    for (const key of ['a"b', "a\\b", "${x}", "%{y}", "é", "🎉", "", "1", "a.b[c]", "\u0007"]) {
      const text = formatAddress({ modules: [{ name: "m", key }], mode: "managed", type: "t", name: "n", key });
      expect(parseAddress(text)).toEqual({ modules: [{ name: "m", key }], mode: "managed", type: "t", name: "n", key });
    }
  });

  it("drops every instance key for the config address", () => {
    expect(configAddressOf(parseAddress('module.waf["a"].module.x[0].cloudflare_waf_rule.r["1"]'))).toBe("module.waf.module.x.cloudflare_waf_rule.r");
  });

  it("parses module paths and rejects malformed addresses", () => {
    expect(parseModulePath("")).toEqual([]);
    expect(parseModulePath('module.a["k"].module.b')).toEqual([{ name: "a", key: "k" }, { name: "b" }]);
    expect(() => parseAddress("cloudflare_waf_rule")).toThrow();
    expect(() => parseAddress('cloudflare_waf_rule.r["unterminated]')).toThrow();
    expect(() => parseAddress("cloudflare_waf_rule.r[x]")).toThrow();
  });
});
