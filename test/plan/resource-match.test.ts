// Resource-level matching: a configured resource matches every instance `terraform state list` prints for
// it. The TypeScript matcher (apply) and the sed expression of migrate.sh must agree with each other and
// with the real terraform's quoting of instance keys, nasty keys included.
import { execa } from "execa";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { instancesOfResources, legacyResourceSet, resourceOfInstance } from "../../src/core/resource-match.js";
import { STRIP_INSTANCE_KEYS_SED } from "../../src/plan/migrate-script.js";
import { tempDir } from "../support/workdir.js";
import { REAL_TERRAFORM, tfEnv } from "../e2e/helpers.js";

const PROVIDER = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
const NASTY_KEYS: (string | number)[] = [0, 3, 12, "k", 'a"]b', "x]\"[y", "tab\there", "back\\slash", "${interp}", "%{directive}", "new\nline", "ünïcödé", "[0]", '\\"', "", " "];

function nastyState(): string {
  const resources = [
    { module: undefined, keys: [0, 1] },
    { module: 'module.waf["a\\"]b"]', keys: NASTY_KEYS },
    { module: 'module.zones["shop"].module.waf[0]', keys: ["100015", "URI-958000"] },
    { module: "module.plain", keys: [undefined] },
  ].flatMap(({ module, keys }, i) => [
    {
      ...(module ? { module } : {}),
      mode: "managed",
      type: "cloudflare_waf_rule",
      name: `r${i}`,
      provider: PROVIDER,
      instances: keys.map((k) => ({ ...(k === undefined ? {} : { index_key: k }), schema_version: 0, attributes: { id: String(k) }, sensitive_attributes: [] })),
    },
    {
      ...(module ? { module } : {}),
      mode: "data",
      type: "cloudflare_waf_packages",
      name: `p${i}`,
      provider: PROVIDER,
      instances: [{ schema_version: 0, attributes: { id: "p" }, sensitive_attributes: [] }],
    },
  ]);
  return JSON.stringify({ version: 4, terraform_version: "1.11.4", serial: 1, lineage: "0b5c3e1f-2d4a-4e6b-8c9d-0a1b2c3d4e99", outputs: {}, resources });
}

async function realStateList(): Promise<string[]> {
  const dir = tempDir("cfwm-nasty-");
  writeFileSync(path.join(dir, "terraform.tfstate"), nastyState());
  const r = await execa(REAL_TERRAFORM, ["state", "list"], { cwd: dir, env: tfEnv() });
  return r.stdout.split("\n").filter((l) => l !== "");
}

describe("resource-level matching", () => {
  it("drops every instance key, in module steps too", () => {
    expect(resourceOfInstance("cloudflare_waf_group.noisy[0]")).toBe("cloudflare_waf_group.noisy");
    expect(resourceOfInstance('cloudflare_waf_group.g["k"]')).toBe("cloudflare_waf_group.g");
    expect(resourceOfInstance('module.waf["a"].cloudflare_waf_rule.r[1]')).toBe("module.waf.cloudflare_waf_rule.r");
    expect(resourceOfInstance('module.a[0].module.b["x\\"]y"].data.cloudflare_waf_packages.p')).toBe("module.a.module.b.data.cloudflare_waf_packages.p");
    expect(resourceOfInstance("not an address")).toBeNull();
  });

  it("a configured resource matches x, x[0], x[\"k\"] and every module instance, nothing else", () => {
    const list = [
      "cloudflare_waf_group.noisy",
      "cloudflare_waf_group.noisy[0]",
      'cloudflare_waf_group.noisy["k"]',
      "cloudflare_waf_group.noisy_too[0]",
      'module.waf["a"].cloudflare_waf_group.noisy[1]',
      "data.cloudflare_waf_groups.noisy",
    ];
    expect(instancesOfResources(list, ["cloudflare_waf_group.noisy"])).toEqual(list.slice(0, 3));
    expect(instancesOfResources(list, ["module.waf.cloudflare_waf_group.noisy"])).toEqual([list[4]]);
    expect(legacyResourceSet(["module.waf.cloudflare_waf_group.g"], ['module.waf["x"].cloudflare_waf_group.g["1"]', "cloudflare_waf_rule.r[0]"])).toEqual([
      "cloudflare_waf_rule.r",
      "module.waf.cloudflare_waf_group.g",
    ]);
  });

  it("the migrate.sh sed expression and the TypeScript matcher agree on the real terraform's output for nasty keys", async () => {
    const lines = await realStateList();
    expect(lines.length).toBeGreaterThan(NASTY_KEYS.length);
    const sed = await execa("sed", ["-E", STRIP_INSTANCE_KEYS_SED], { input: lines.join("\n") + "\n" });
    const stripped = sed.stdout.split("\n");
    expect(stripped.length).toBe(lines.length);
    lines.forEach((line, i) => {
      const expected = resourceOfInstance(line);
      expect(expected, line).not.toBeNull();
      expect(stripped[i], line).toBe(expected);
    });
    // Every instance of the nasty module's resource is matched by its one config address.
    expect(instancesOfResources(lines, ["module.waf.cloudflare_waf_rule.r1"]).length).toBe(NASTY_KEYS.length);
  });
});
