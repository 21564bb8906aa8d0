import { describe, expect, it } from "vitest";
import { parseStateText } from "../../src/terraform/state/read.js";

const v4 = (resources: unknown[]) => JSON.stringify({ version: 4, terraform_version: "1.5.7", serial: 1, lineage: "x", outputs: {}, resources });

describe("state reader", () => {
  it("reads v4 state with modules, count and for_each into state-list addresses", () => {
    const out = parseStateText(
      v4([
        { mode: "managed", type: "cloudflare_waf_rule", name: "r", provider: "p", instances: [{ index_key: 0, attributes: { rule_id: "1", zone_id: "z" } }] },
        { module: 'module.waf["shop"]', mode: "managed", type: "cloudflare_waf_group", name: "off", provider: "p", instances: [{ index_key: "de67", attributes: { zone_id: "z" } }] },
        { mode: "data", type: "cloudflare_waf_packages", name: "p", provider: "p", instances: [{ attributes: {} }] },
      ]),
      "t.tfstate",
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.state.instances.map((i) => [i.address, i.configAddress, i.module])).toEqual([
      ["cloudflare_waf_rule.r[0]", "cloudflare_waf_rule.r", ""],
      ['module.waf["shop"].cloudflare_waf_group.off["de67"]', "module.waf.cloudflare_waf_group.off", 'module.waf["shop"]'],
      ["data.cloudflare_waf_packages.p", "data.cloudflare_waf_packages.p", ""],
    ]);
  });

  it("reads terraform show -json output with child modules", () => {
    const doc = {
      format_version: "1.0",
      terraform_version: "1.11.0",
      values: {
        root_module: {
          resources: [{ address: "cloudflare_waf_package.owasp", mode: "managed", type: "cloudflare_waf_package", name: "owasp", schema_version: 0, values: { zone_id: "z" } }],
          child_modules: [
            {
              address: 'module.waf["a"]',
              resources: [{ address: 'module.waf["a"].cloudflare_waf_rule.r["100015"]', mode: "managed", type: "cloudflare_waf_rule", name: "r", index: "100015", values: { mode: "block" } }],
            },
          ],
        },
      },
    };
    const out = parseStateText(JSON.stringify(doc), "show.json");
    expect(out.ok && out.state.instances.map((i) => [i.address, i.module, i.attributes])).toEqual([
      ["cloudflare_waf_package.owasp", "", { zone_id: "z" }],
      ['module.waf["a"].cloudflare_waf_rule.r["100015"]', 'module.waf["a"]', { mode: "block" }],
    ]);
  });

  it("reads the prior state of `terraform show -json PLANFILE`", () => {
    const plan = {
      format_version: "1.2",
      planned_values: { root_module: {} },
      prior_state: { format_version: "1.0", values: { root_module: { resources: [{ address: "cloudflare_waf_rule.r[0]", mode: "managed", type: "cloudflare_waf_rule", name: "r", index: 0, values: { mode: "block" } }] } } },
    };
    const out = parseStateText(JSON.stringify(plan), "plan.json");
    expect(out.ok && out.state.instances.map((i) => i.address)).toEqual(["cloudflare_waf_rule.r[0]"]);
  });

  it("an empty show -json (no resources) is an empty state", () => {
    const out = parseStateText('{"format_version":"1.0"}', "s.json");
    expect(out.ok && out.state.instances).toEqual([]);
  });

  it.each([
    ["", /empty/],
    ['{"version": 4, "resources": [', /truncated/],
    ["not json", /not valid JSON/],
    ['{"version": 3, "modules": []}', /state version 3 is not supported/],
    ["[1,2]", /expected a JSON object/],
    ['{"serial": 1}', /not a Terraform state/],
    ['{"version": 4, "resources": [{"type": 1}]}', /without type or name/],
    ['{"version": 4, "resources": [{"mode": "managed", "type": "cloudflare_waf_rule", "name": "r ]x", "instances": []}]}', /malformed resource/],
    ['{"version": 4, "resources": [{"mode": "managed", "type": "cloudflare_waf_rule", "name": "r", "instances": [{"index_key": 1.5, "attributes": {}}]}]}', /malformed index_key 1.5/],
  ])("refuses bad state %j with a one-line message", (text, message) => {
    const out = parseStateText(text, "bad.tfstate");
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.file).toBe("bad.tfstate");
    expect(out.error.message).toMatch(message);
    expect(out.error.message).not.toMatch(/\n/);
  });

  it("takes a resource name that is a Terraform identifier, ASCII or not, and no other", () => {
    // Names are checked by an ASCII pattern first and by the Unicode one (ID_Start, ID_Continue) after.
    const entry = (name: string) => `{"version": 4, "resources": [{"mode": "managed", "type": "cloudflare_waf_rule", "name": ${JSON.stringify(name)}, "instances": [{"index_key": "k", "attributes": {}}]}]}`;
    for (const name of ["r", "_r-1", "café", "Δ_2", "名前"]) {
      const out = parseStateText(entry(name), "s");
      expect(out.ok && out.state.instances.map((i) => [i.address, i.configAddress, i.indexKey])).toEqual([[`cloudflare_waf_rule.${name}["k"]`, `cloudflare_waf_rule.${name}`, "k"]]);
    }
    for (const name of ["1r", "-r", "r.x", "r x", "", "r\u00a0"]) expect(parseStateText(entry(name), "s")).toMatchObject({ ok: false, error: { message: expect.stringMatching(/malformed resource/) } });
  });

  it("gives each instance its address and every instance of a resource one config address", () => {
    const text = JSON.stringify({
      version: 4,
      resources: [
        { module: 'module.waf["shop"].module.inner[0]', mode: "managed", type: "cloudflare_waf_rule", name: "r", instances: [{ index_key: 'a"b ${x}', attributes: {} }, { index_key: 3, attributes: {} }, { deposed: "d", attributes: {} }] },
        { mode: "data", type: "cloudflare_waf_packages", name: "p", instances: [{ attributes: {} }] },
        { module: "module.m", mode: "managed", type: "cloudflare_zone", name: "z", instances: [{ attributes: {} }] },
      ],
    });
    const out = parseStateText(text, "s");
    expect(out.ok && out.state.instances.map((i) => [i.address, i.configAddress, i.module, i.indexKey])).toEqual([
      ['module.waf["shop"].module.inner[0].cloudflare_waf_rule.r["a\\"b $${x}"]', "module.waf.module.inner.cloudflare_waf_rule.r", 'module.waf["shop"].module.inner[0]', 'a"b ${x}'],
      ['module.waf["shop"].module.inner[0].cloudflare_waf_rule.r[3]', "module.waf.module.inner.cloudflare_waf_rule.r", 'module.waf["shop"].module.inner[0]', 3],
      ["data.cloudflare_waf_packages.p", "data.cloudflare_waf_packages.p", "", undefined],
      ["module.m.cloudflare_zone.z", "module.m.cloudflare_zone.z", "module.m", undefined],
    ]);
    // No key, no indexKey property at all (JSON output stays as it was).
    expect(out.ok && Object.keys(out.state.instances[2]!)).toEqual(["address", "configAddress", "module", "mode", "type", "name", "attributes", "schemaVersion", "provider"]);
    expect(out.ok && Object.keys(out.state.instances[0]!)).toEqual(["address", "configAddress", "module", "mode", "type", "name", "indexKey", "attributes", "schemaVersion", "provider"]);
  });

  it("gives the line of a JSON syntax error", () => {
    const out = parseStateText('{\n  "version": 4,\n  "resources": [}\n', "bad.tfstate");
    expect(!out.ok && out.error.line).toBe(3);
  });
});
