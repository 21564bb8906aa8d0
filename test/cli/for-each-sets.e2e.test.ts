// A report said a legacy rule whose for_each is a set (toset of rule ids, a one-element toset(["waf"]))
// was dropped from its zone in the generated ruleset. Not reproduced from the built CLI: every variation
// below keeps each instance in its zone, in the ruleset's TODOs and in step 5. Kept as a regression test.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const Z1 = "3f1bc18efe333337886cd2d0f6fa0000";
const Z2 = "9a7806061c88ada191ed06f989cc3dac";

interface Report {
  resources: { address: string; zoneId: string | null }[];
  zones: { zoneId: string; stateRemovals: string[]; ruleset: { rules: { action: string; expression: string }[] } }[];
  errors: unknown[];
}

async function planOf(dir: string, extra: string[] = []): Promise<Report> {
  const r = await runCli(["plan", dir, ...extra, "--format", "json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

const removals = (r: Report, zone: string) => r.zones.find((z) => z.zoneId === zone)?.stateRemovals ?? [];

describe("legacy resources under for_each over a set", () => {
  it("toset of rule ids, toset([\"waf\"]), a set from a local, a var set from tfvars, a module for_each = toset(var.zones)", async () => {
    const dir = tempDir("cfwm-sets-");
    mkdirSync(path.join(dir, "modules", "waf"), { recursive: true });
    writeFileSync(
      path.join(dir, "main.tf"),
      `variable "rule_ids" { type = set(string) }
variable "zones" { type = list(string) }

locals {
  groups = toset(["de677e5818985db1285d0e80225f06e5"])
}

resource "cloudflare_waf_rule" "ids" {
  for_each = toset(["100000356", "100000357"])
  zone_id  = "${Z1}"
  rule_id  = each.key
  mode     = "simulate"
}

resource "cloudflare_waf_rule" "single" {
  for_each = toset(["waf"])
  zone_id  = "${Z1}"
  rule_id  = "100000400"
  mode     = "disable"
}

resource "cloudflare_waf_group" "from_local" {
  for_each   = local.groups
  zone_id    = "${Z1}"
  group_id   = each.value
  package_id = "1e334934fd7ae32ad705667f8c1057aa"
  mode       = "off"
}

resource "cloudflare_waf_rule" "from_var" {
  for_each = var.rule_ids
  zone_id  = "${Z1}"
  rule_id  = each.key
  mode     = "block"
}

module "waf" {
  source   = "./modules/waf"
  for_each = toset(var.zones)
  zone_id  = each.value
}
`,
    );
    writeFileSync(
      path.join(dir, "modules", "waf", "main.tf"),
      `variable "zone_id" { type = string }

resource "cloudflare_waf_rule" "r" {
  for_each = toset(["waf"])
  zone_id  = var.zone_id
  rule_id  = "100000500"
  mode     = "simulate"
}
`,
    );
    writeFileSync(path.join(dir, "terraform.tfvars"), `rule_ids = ["100000600", "100000601"]\nzones = ["${Z1}", "${Z2}"]\n`);
    const report = await planOf(dir);
    expect(report.errors).toEqual([]);
    expect(removals(report, Z1)).toEqual([
      'cloudflare_waf_group.from_local["de677e5818985db1285d0e80225f06e5"]',
      'cloudflare_waf_rule.from_var["100000600"]',
      'cloudflare_waf_rule.from_var["100000601"]',
      'cloudflare_waf_rule.ids["100000356"]',
      'cloudflare_waf_rule.ids["100000357"]',
      'cloudflare_waf_rule.single["waf"]',
      `module.waf["${Z1}"].cloudflare_waf_rule.r["waf"]`,
    ]);
    expect(removals(report, Z2)).toEqual([`module.waf["${Z2}"].cloudflare_waf_rule.r["waf"]`]);
    for (const r of report.resources) expect([Z1, Z2], r.address).toContain(r.zoneId);
  });

  it("a bypass firewall rule with for_each = toset([\"waf\"]) (and products = toset([\"waf\"])), config and state: a skip rule each", async () => {
    const dir = tempDir("cfwm-sets-");
    writeFileSync(
      path.join(dir, "main.tf"),
      `resource "cloudflare_waf_rule" "r" {
  zone_id = "${Z1}"
  rule_id = "100000356"
  mode    = "simulate"
}

resource "cloudflare_filter" "health" {
  zone_id    = "${Z1}"
  expression = "(http.request.uri.path eq \\"/health\\")"
}

resource "cloudflare_firewall_rule" "each" {
  for_each  = toset(["waf"])
  zone_id   = "${Z1}"
  filter_id = cloudflare_filter.health.id
  action    = "bypass"
  products  = [each.key]
}

resource "cloudflare_firewall_rule" "set" {
  zone_id   = "${Z1}"
  filter_id = cloudflare_filter.health.id
  action    = "bypass"
  products  = toset(["waf"])
}
`,
    );
    const skips = (r: Report) => r.zones.find((z) => z.zoneId === Z1)!.ruleset.rules.filter((x) => x.action === "skip");
    expect(skips(await planOf(dir))).toHaveLength(2);

    const provider = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
    const inst = (attributes: Record<string, unknown>, key?: string) => ({ ...(key ? { index_key: key } : {}), schema_version: 0, attributes });
    writeFileSync(
      path.join(dir, "terraform.tfstate"),
      JSON.stringify({
        version: 4,
        terraform_version: "1.11.4",
        serial: 1,
        lineage: "l",
        outputs: {},
        resources: [
          { mode: "managed", type: "cloudflare_waf_rule", name: "r", provider, instances: [inst({ id: "100000356", rule_id: "100000356", zone_id: Z1, mode: "simulate" })] },
          { mode: "managed", type: "cloudflare_filter", name: "health", provider, instances: [inst({ id: "f1", zone_id: Z1, expression: '(http.request.uri.path eq "/health")', paused: false })] },
          { mode: "managed", type: "cloudflare_firewall_rule", name: "each", provider, instances: [inst({ id: "r1", zone_id: Z1, filter_id: "f1", action: "bypass", products: ["waf"], paused: false }, "waf")] },
          { mode: "managed", type: "cloudflare_firewall_rule", name: "set", provider, instances: [inst({ id: "r2", zone_id: Z1, filter_id: "f1", action: "bypass", products: ["waf"], paused: false })] },
        ],
      }),
    );
    expect(skips(await planOf(dir, ["--state", path.join(dir, "terraform.tfstate")]))).toHaveLength(2);
  });
});
