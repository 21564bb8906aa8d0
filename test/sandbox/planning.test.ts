// The double's schema-driven planning against the real schemas, without terraform: what must be kept,
// defaulted, left unknown or replaced, and the provider-side checks.

import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../dist/sandbox/provider/cty.js";
import { planChange, validateConfig, withDefaults } from "../../dist/sandbox/provider/planning.js";
import { loadSchemaFile } from "../../dist/sandbox/provider/server.js";
import { conformBlock } from "../../dist/sandbox/provider/cty.js";

const v3 = loadSchemaFile("3.35.0");
const v4 = loadSchemaFile("4.52.8");

describe("planning from the real schemas", () => {
  it("on create keeps the configuration, applies SDKv2 defaults and leaves the id unknown", () => {
    const schema = v3.resources.cloudflare_waf_group!;
    const config = conformBlock({ zone_id: "z", group_id: "g" }, schema.block)!;
    const { planned, requiresReplace } = planChange(schema, null, config, config);
    expect(planned).toEqual({ zone_id: "z", group_id: "g", mode: "on", package_id: UNKNOWN, id: UNKNOWN });
    expect(requiresReplace).toEqual([]);
  });

  it("asks for replacement where the source has ForceNew, and only there", () => {
    const schema = v3.resources.cloudflare_waf_group!;
    const prior = { zone_id: "z", group_id: "g", mode: "on", package_id: "p", id: "g" };
    const proposed = { ...prior, group_id: "g2", mode: "off" };
    const config = { zone_id: "z", group_id: "g2", mode: "off", package_id: null, id: null };
    expect(planChange(schema, prior, proposed, config).requiresReplace).toEqual([["group_id"]]);
    const modeOnly = { ...prior, mode: "off" };
    expect(planChange(schema, prior, modeOnly, { ...config, group_id: "g" }).requiresReplace).toEqual([]);
  });

  it("leaves a new ruleset rule's service-chosen fields unknown and an existing rule's alone (4.52 framework)", () => {
    const schema = v4.resources.cloudflare_ruleset!;
    const rule = (extra: object) => conformBlock({ rules: [{ expression: "true", action: "execute", ...extra }] }, schema.block)!.rules as object[];
    const existing = { ...(rule({ id: "r1", ref: "r1", enabled: true, description: "d" })[0] as object) };
    const fresh = { ...(rule({})[0] as object) };
    const base = conformBlock({ zone_id: "z", name: "n", kind: "zone", phase: "http_request_firewall_managed", id: "rs", description: "" }, schema.block)!;
    const prior = { ...base, rules: [existing] };
    const proposed = { ...base, rules: [existing, fresh] };
    const config = { ...base, id: null, rules: [{ ...existing, id: null, ref: null }, fresh] };
    const { planned, requiresReplace } = planChange(schema, prior, proposed, config);
    const rules = (planned as { rules: Record<string, unknown>[] }).rules;
    expect(rules[0]).toMatchObject({ id: "r1", ref: "r1", enabled: true });
    expect(rules[1]).toMatchObject({ id: UNKNOWN, ref: UNKNOWN, enabled: true, description: UNKNOWN });
    expect(requiresReplace).toEqual([]);
  });

  it("reports the provider's StringInSlice checks with the SDK's wording and the nested key", () => {
    const schema = v3.resources.cloudflare_zone_settings_override!;
    const config = conformBlock({ zone_id: "z", settings: [{ waf: "maybe" }] }, schema.block)!;
    expect(validateConfig(schema.block, config)).toEqual([
      { key: "settings.0.waf", path: ["settings", 0, "waf"], message: 'expected settings.0.waf to be one of ["on" "off"], got maybe' },
    ]);
  });

  it("fills SDKv2 defaults into a state read back from the account", () => {
    const schema = v3.resources.cloudflare_page_rule!;
    const state = conformBlock({ zone_id: "z", target: "example.com/*", actions: [{ waf: "off" }] }, schema.block)!;
    const read = withDefaults(schema.block, state);
    expect(read).toMatchObject({ priority: 1, status: "active" });
    expect((read.actions as Record<string, unknown>[])[0]).toMatchObject({ waf: "off", always_use_https: false });
  });
});
