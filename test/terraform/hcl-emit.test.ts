import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "@cdktn/hcl-tools";
import { parse } from "@cdktn/hcl2json";
import { describe, expect, it } from "vitest";
import type { Ruleset, RulesetRule } from "../../src/core/model.js";
import { shellQuote } from "../../src/core/shell-quote.js";
import {
  HclEmitError,
  emitImportBlock,
  emitRemovedBlocks,
  emitRulesetHcl,
  emitTerraformImportCommand,
  hclString,
  rulesetResourceName,
  stripInstanceKeys,
} from "../../src/terraform/hcl/emit.js";

const here = dirname(fileURLToPath(import.meta.url));
const goldenDir = join(here, "golden");
const updateGolden = process.env.UPDATE_GOLDEN === "1";
const TERRAFORM = "/usr/local/bin/terraform";
const hasTerraform = existsSync(TERRAFORM);

const CF_MANAGED = "efb7b8c949ac4650a09736fc376e9aee";
const OWASP = "4814384a9e5d4991b9815dcfc25d2f1f";
const OWASP_SCORE_RULE = "6179ae15870a4bb7b2d480d4843b323c";

const skipRule: RulesetRule = {
  action: "skip",
  expression: '(http.host eq "shop.example.com" and starts_with(http.request.uri.path, "/admin/"))',
  description: "Migrated from cloudflare_firewall_rule.bypass_admin (Bypass > WAF)",
  enabled: true,
  action_parameters: { ruleset: "current" },
  logging: { enabled: true },
};

const managedRuleset: Ruleset = {
  name: "default",
  description: "Zone-level WAF managed rules (migrated from the previous WAF)",
  rules: [
    skipRule,
    {
      action: "execute",
      expression: "true",
      description: "Cloudflare Managed Ruleset",
      enabled: true,
      action_parameters: { id: CF_MANAGED },
    },
    {
      action: "execute",
      expression: "true",
      description: "Cloudflare OWASP Core Ruleset",
      enabled: true,
      action_parameters: {
        id: OWASP,
        overrides: {
          categories: [
            { category: "paranoia-level-3", enabled: false },
            { category: "paranoia-level-4", enabled: false },
          ],
          rules: [{ id: OWASP_SCORE_RULE, action: "log", score_threshold: 40 }],
        },
      },
    },
  ],
};

const disabledRuleset: Ruleset = {
  name: "default",
  rules: [
    {
      action: "execute",
      expression: "true",
      description: "Cloudflare OWASP Core Ruleset (sensitivity off)",
      enabled: false,
      action_parameters: { id: OWASP, overrides: { categories: [], rules: [] } },
    },
  ],
};

const rawStringRuleset: Ruleset = {
  name: "default",
  description: 'quotes " and ${dollar} and %{percent}',
  rules: [
    {
      action: "skip",
      expression:
        'http.request.uri.path matches r"^/api/v[0-9]+/\\w+$" or http.request.full_uri contains r#"a"b"# ' +
        'or http.user_agent eq "say \\"hi\\"" or http.request.uri.query contains "${not_an_interpolation}" ' +
        'or http.request.uri.query contains "%{not_a_directive}" or http.host eq "$${already_doubled}"',
      description: 'Page Rule "Disable Security" on shop.example.com/${x}\\*\nsecond line',
      enabled: true,
      action_parameters: { ruleset: "current" },
      logging: { enabled: true },
    },
  ],
};

const cases: { name: string; ruleset: Ruleset; todo?: string[] }[] = [
  { name: "managed", ruleset: managedRuleset, todo: ["Replace <RULESET_ID> in the import block (see RULESET_ID_UNKNOWN)."] },
  { name: "disabled", ruleset: disabledRuleset },
  { name: "raw-strings", ruleset: rawStringRuleset },
];

/** hcl2json keeps template escapes (`$${`, `%%{`) as written; decode them to get the string's value. */
function templateValue(v: unknown): unknown {
  if (typeof v === "string") return v.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
  if (Array.isArray(v)) return v.map(templateValue);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, templateValue(x)]));
  }
  return v;
}

/** Provider 4 blocks come back as one-element arrays; provider 5 attributes as objects. */
function single(v: unknown): any {
  if (Array.isArray(v)) {
    expect(v).toHaveLength(1);
    return v[0];
  }
  return v;
}

function toRuleset(resource: any): Ruleset {
  const rules: RulesetRule[] = (resource.rules ?? []).map((r: any) => {
    const out: any = { action: r.action, expression: r.expression, description: r.description, enabled: r.enabled };
    if (r.ref !== undefined) out.ref = r.ref;
    if (r.action_parameters !== undefined) {
      const ap = single(r.action_parameters);
      out.action_parameters = { ...ap };
      if (ap.overrides !== undefined) out.action_parameters.overrides = { ...single(ap.overrides) };
    }
    if (r.logging !== undefined) out.logging = single(r.logging);
    return out;
  });
  const rs: Ruleset = { name: resource.name, rules };
  if (resource.description !== "") rs.description = resource.description;
  return rs;
}

/** What the emitter promises to write: no empty override lists, no empty overrides, no computed ids. */
function expectedRuleset(rs: Ruleset): Ruleset {
  const copy: Ruleset = JSON.parse(JSON.stringify(rs));
  if (copy.description === "") delete copy.description;
  for (const r of copy.rules) {
    delete r.id;
    delete r.version;
    const o = r.action_parameters?.overrides;
    if (o) {
      if (o.categories?.length === 0) delete o.categories;
      if (o.rules?.length === 0) delete o.rules;
      if (Object.keys(o).length === 0) delete r.action_parameters!.overrides;
    }
  }
  return copy;
}

describe("emitRulesetHcl", () => {
  for (const c of cases) {
    for (const providerMajor of [4, 5] as const) {
      describe(`${c.name}, provider ${providerMajor}`, () => {
        const file = join(goldenDir, `${c.name}.v${providerMajor}.tf`);
        const emit = () =>
          emitRulesetHcl({
            resourceName: "waf_managed_example_com",
            zoneIdExpression: "cloudflare_zone.shop.id",
            ruleset: c.ruleset,
            providerMajor,
            todoComments: c.todo,
          });

        it("matches the golden file", async () => {
          const text = await emit();
          if (updateGolden) writeFileSync(file, text);
          expect(text).toBe(readFileSync(file, "utf8"));
        });

        it("re-parses to the input ruleset (round trip)", async () => {
          const text = await emit();
          const parsed: any = await parse("golden.tf", text);
          const resources = parsed.resource.cloudflare_ruleset.waf_managed_example_com;
          expect(resources).toHaveLength(1);
          const res = templateValue(resources[0]) as any;
          expect(parsed.resource.cloudflare_ruleset.waf_managed_example_com[0].zone_id).toBe("${cloudflare_zone.shop.id}");
          expect(res.kind).toBe("zone");
          expect(res.phase).toBe("http_request_firewall_managed");
          expect(toRuleset(res)).toEqual(expectedRuleset(c.ruleset));
          if (providerMajor === 4) {
            // Blocks, not attributes: hcl2json reports nested blocks as arrays.
            for (const r of res.rules) expect(Array.isArray(r.action_parameters)).toBe(true);
          } else {
            for (const r of res.rules) expect(Array.isArray(r.action_parameters)).toBe(false);
          }
        });

        it("is idempotent under format()", async () => {
          const text = await emit();
          expect(await format(text)).toBe(text);
        });

        it.skipIf(!hasTerraform)("passes terraform fmt -check", async () => {
          const dir = mkdtempSync(join(tmpdir(), "hcl-emit-"));
          try {
            const tf = join(dir, "main.tf");
            writeFileSync(tf, await emit());
            const r = spawnSync(TERRAFORM, ["fmt", "-check", "-diff", tf], {
              encoding: "utf8",
              env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" },
            });
            expect({ status: r.status, diff: r.stdout, stderr: r.stderr }).toEqual({ status: 0, diff: "", stderr: "" });
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        });
      });
    }
  }

  // One workspace's ruleset in a root several workspaces share: count is core Terraform, the first line of
  // the resource for provider 4's blocks and provider 5's attributes alike.
  for (const providerMajor of [4, 5] as const) {
    it(`writes count as the first line of the resource (provider ${providerMajor}); it parses and passes terraform fmt`, async () => {
      const text = await emitRulesetHcl({ resourceName: "waf_managed_0da42c8d_eu", zoneIdExpression: '"0da42c8d2132a9ddaf714f9e7c920711"', ruleset: managedRuleset, providerMajor, count: 'terraform.workspace == "eu" ? 1 : 0' });
      expect(text).toContain('resource "cloudflare_ruleset" "waf_managed_0da42c8d_eu" {\n  count = terraform.workspace == "eu" ? 1 : 0\n\n  zone_id     = ');
      const res = (await parse("r.tf", text)).resource.cloudflare_ruleset.waf_managed_0da42c8d_eu[0];
      expect(res.count).toBe('${terraform.workspace == "eu" ? 1 : 0}');
      expect(await format(text)).toBe(text);
      if (!hasTerraform) return;
      const dir = mkdtempSync(join(tmpdir(), "hcl-emit-"));
      try {
        writeFileSync(join(dir, "main.tf"), text);
        const r = spawnSync(TERRAFORM, ["fmt", "-check", "-diff", join(dir, "main.tf")], { encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" } });
        expect({ status: r.status, diff: r.stdout }).toEqual({ status: 0, diff: "" });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("refuses a count expression over several lines", async () => {
    await expect(emitRulesetHcl({ resourceName: "r", zoneIdExpression: '"z"', ruleset: managedRuleset, providerMajor: 4, count: "1\n2" })).rejects.toThrow(HclEmitError);
  });

  it("writes TODO comments above the resource, one per line", async () => {
    const text = await emitRulesetHcl({
      resourceName: "r",
      zoneIdExpression: '"0da4c5d6e7f8091a2b3c4d5e6f708192"',
      ruleset: { name: "default", rules: [] },
      providerMajor: 5,
      todoComments: ["first", "second\nthird"],
    });
    expect(text.startsWith('# TODO: first\n# TODO: second\n# TODO: third\nresource "cloudflare_ruleset" "r" {\n')).toBe(
      true,
    );
    const parsed: any = await parse("x.tf", text);
    expect(parsed.resource.cloudflare_ruleset.r[0].zone_id).toBe("0da4c5d6e7f8091a2b3c4d5e6f708192");
    expect(parsed.resource.cloudflare_ruleset.r[0].rules).toEqual([]);
  });

  it("writes ref and ruleset-level override fields when present", async () => {
    const rs: Ruleset = {
      name: "default",
      rules: [
        {
          id: "1111",
          version: "3",
          ref: "abc123",
          action: "execute",
          expression: "true",
          description: "",
          enabled: true,
          action_parameters: { id: CF_MANAGED, overrides: { action: "log", enabled: true } },
        },
      ],
    };
    for (const providerMajor of [4, 5] as const) {
      const text = await emitRulesetHcl({ resourceName: "r", zoneIdExpression: "var.zone_id", ruleset: rs, providerMajor });
      const parsed: any = await parse("x.tf", text);
      expect(toRuleset(parsed.resource.cloudflare_ruleset.r[0])).toEqual(expectedRuleset(rs));
      expect(text).not.toContain("1111");
    }
  });

  it("refuses names and expressions that cannot be valid HCL", async () => {
    const base = { zoneIdExpression: "var.z", ruleset: { name: "d", rules: [] }, providerMajor: 4 as const };
    await expect(emitRulesetHcl({ ...base, resourceName: "1abc" })).rejects.toThrow(HclEmitError);
    await expect(emitRulesetHcl({ ...base, resourceName: "a b" })).rejects.toThrow(HclEmitError);
    await expect(emitRulesetHcl({ ...base, resourceName: "ok", zoneIdExpression: "var.z\nx = 1" })).rejects.toThrow(
      HclEmitError,
    );
    await expect(emitRulesetHcl({ ...base, resourceName: "ok", zoneIdExpression: "var.z }" })).rejects.toThrow(
      /does not parse/,
    );
  });
});

describe("hclString", () => {
  it.each([
    ["plain", '"plain"'],
    ['a "quote"', '"a \\"quote\\""'],
    ["back\\slash", '"back\\\\slash"'],
    ["${x}", '"$${x}"'],
    ["%{if}", '"%%{if}"'],
    ["$${x}", '"$$${x}"'],
    ["$ and % alone, $$ %%", '"$ and % alone, $$ %%"'],
    ["line\nbreak\r\ttab", '"line\\nbreak\\r\\ttab"'],
    ["\u0001", '"\\u0001"'],
    ["é🎉", '"é🎉"'],
  ])("%j → %s", (input, expected) => {
    expect(hclString(input)).toBe(expected);
  });

  it.skipIf(!hasTerraform)("terraform reads every literal back as the original value", () => {
    const values = ['a "q" \\ r"x\\d"', "${x} $${y} $$${z} %{a} %%{b} $ % $$ %%", "multi\nline\ttab", "é🎉"];
    const dir = mkdtempSync(join(tmpdir(), "hcl-str-"));
    try {
      for (const v of values) {
        const out = execFileSync(TERRAFORM, ["console"], {
          cwd: dir,
          input: `base64encode(${hclString(v)})\n`,
          encoding: "utf8",
          env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" },
          stdio: ["pipe", "pipe", "ignore"],
        });
        const b64 = out.trim().replace(/^"|"$/g, "");
        expect(Buffer.from(b64, "base64").toString("utf8")).toBe(v);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("import and removed blocks", () => {
  it("emits an import block that formats and parses", async () => {
    const text = emitImportBlock("cloudflare_ruleset.waf_managed_example_com", "zone/0da4/<RULESET_ID>");
    expect(text).toBe(
      'import {\n  to = cloudflare_ruleset.waf_managed_example_com\n  id = "zone/0da4/<RULESET_ID>"\n}\n',
    );
    expect(await format(text)).toBe(text);
    const parsed: any = await parse("x.tf", text);
    expect(parsed.import[0]).toEqual({ to: "${cloudflare_ruleset.waf_managed_example_com}", id: "zone/0da4/<RULESET_ID>" });
    expect(() => emitImportBlock("not an address", "x")).toThrow(HclEmitError);
  });

  it("emits removed blocks without instance keys, deduplicated", async () => {
    const text = emitRemovedBlocks([
      'module.waf["shop"].cloudflare_waf_group.off["de67.x]y"]',
      'module.waf["blog"].cloudflare_waf_group.off["a"]',
      "cloudflare_waf_package.owasp",
      "cloudflare_waf_rule.r[0]",
      "cloudflare_waf_rule.r[1]",
    ]);
    expect(text).toBe(
      [
        "removed {\n  from = module.waf.cloudflare_waf_group.off\n\n  lifecycle {\n    destroy = false\n  }\n}\n",
        "removed {\n  from = cloudflare_waf_package.owasp\n\n  lifecycle {\n    destroy = false\n  }\n}\n",
        "removed {\n  from = cloudflare_waf_rule.r\n\n  lifecycle {\n    destroy = false\n  }\n}\n",
      ].join("\n"),
    );
    expect(await format(text)).toBe(text);
    const parsed: any = await parse("x.tf", text);
    expect(parsed.removed.map((r: any) => r.from)).toEqual([
      "${module.waf.cloudflare_waf_group.off}",
      "${cloudflare_waf_package.owasp}",
      "${cloudflare_waf_rule.r}",
    ]);
    expect(parsed.removed[0].lifecycle).toEqual([{ destroy: false }]);
    expect(emitRemovedBlocks([])).toBe("");
  });

  it("strips instance keys, including quoted keys with dots, brackets and escaped quotes", () => {
    expect(stripInstanceKeys('module.a["x.y"].module.b[0].t.n["q\\"]."]')).toBe("module.a.module.b.t.n");
    expect(() => stripInstanceKeys('t.n["open')).toThrow(HclEmitError);
    expect(() => stripInstanceKeys("t.")).toThrow(HclEmitError);
  });
});

describe("shell commands", () => {
  it("quotes terraform import arguments", () => {
    expect(emitTerraformImportCommand('module.waf["a"].cloudflare_ruleset.r', "zone/abc/<RULESET_ID>")).toBe(
      "terraform import 'module.waf[\"a\"].cloudflare_ruleset.r' 'zone/abc/<RULESET_ID>'",
    );
    expect(emitTerraformImportCommand("cloudflare_ruleset.r", "it's")).toBe(
      "terraform import 'cloudflare_ruleset.r' 'it'\\''s'",
    );
  });

  it("shellQuote survives a real POSIX shell", () => {
    const words = ["plain", "it's", 'module.waf["a b"].x', "$HOME `id` $(id) \\ \n * ?", "", "''"];
    for (const w of words) {
      const out = execFileSync("sh", ["-c", `printf '%s' ${shellQuote(w)}`], { encoding: "utf8" });
      expect(out).toBe(w);
    }
  });
});

describe("rulesetResourceName", () => {
  it("uses the zone name when known, else the start of the zone id", () => {
    expect(rulesetResourceName("0da4c5d6e7f8091a2b3c4d5e6f708192", "shop.example.com")).toBe("waf_managed_shop_example_com");
    expect(rulesetResourceName("0da4c5d6e7f8091a2b3c4d5e6f708192", "My-Shop.co.uk")).toBe("waf_managed_my-shop_co_uk");
    expect(rulesetResourceName("0da4c5d6e7f8091a2b3c4d5e6f708192")).toBe("waf_managed_0da4c5d6");
    expect(rulesetResourceName("0da4c5d6e7f8091a2b3c4d5e6f708192", null)).toBe("waf_managed_0da4c5d6");
    expect(rulesetResourceName("${var.zone_id}", "")).toBe("waf_managed_zone_id");
    expect(rulesetResourceName("", "ü.€")).toBe("waf_managed_zone");
  });

  it("always yields a valid identifier", () => {
    for (const [id, name] of [
      ["123", "9.example"],
      ["x", "--"],
      ["\"'", null],
    ] as const) {
      expect(rulesetResourceName(id, name)).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
    }
  });
});
