// A firewall rule whose `products` terraform rejects (`set("waf")`, a real bug seen in history) was an input
// error and nothing else: its products read as none, so no bypass was counted for the zone and the
// generated ruleset had no skip rule for it. Whatever it was meant to bypass is not known, so it may bypass
// the WAF: a disabled skip rule with a TODO and a VALUE_UNRESOLVED (possibleBypass), besides the input error.
// Shape: a module with for_each over bypass rules from a variable, its examples/complete calling ../../
// with the zone and rules from terraform.tfvars.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "0123456789abcdef0123456789abcdef";

function tree(products: string): string {
  const top = tempDir("cfwm-rejected-products-");
  const root = path.join(top, "waf", "examples", "complete");
  mkdirSync(root, { recursive: true });
  writeFileSync(
    path.join(top, "waf", "main.tf"),
    `variable "zone_id" {
  type = string
}
variable "bypasses" {
  type    = map(string)
  default = {}
}
resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "block"
}
resource "cloudflare_filter" "bypass" {
  for_each   = var.bypasses
  zone_id    = var.zone_id
  expression = each.value
}
resource "cloudflare_firewall_rule" "bypass" {
  for_each  = var.bypasses
  zone_id   = var.zone_id
  filter_id = cloudflare_filter.bypass[each.key].id
  action    = "bypass"
  products  = ${products}
}
`,
  );
  writeFileSync(
    path.join(root, "main.tf"),
    `variable "zone_id" { type = string }
variable "bypasses" { type = map(string) }
module "waf" {
  source   = "../../"
  zone_id  = var.zone_id
  bypasses = var.bypasses
}
`,
  );
  writeFileSync(path.join(root, "terraform.tfvars"), `zone_id  = "${ZONE}"\nbypasses = { health = "(http.request.uri.path eq \\"/health\\")" }\n`);
  return root;
}

interface Report {
  errors: { file: string; line: number | null; message: string }[];
  zones: { zoneId: string; ruleset: { rules: { action: string; enabled?: boolean; description?: string }[] } }[];
  findings: { code: string; address: string | null; details: Record<string, unknown> }[];
}

async function scan(root: string) {
  const r = await runCli(["scan", ".", "--format", "json"], { cwd: root });
  return { exitCode: r.exitCode, report: JSON.parse(r.stdout) as Report };
}

describe("firewall rule products terraform rejects", () => {
  it('products = set("waf"): an input error AND a possible bypass (disabled skip rule, VALUE_UNRESOLVED)', async () => {
    const { exitCode, report } = await scan(tree('set("waf")'));
    expect(exitCode).toBe(2);
    expect(report.errors).toEqual([expect.objectContaining({ file: "../../main.tf", message: expect.stringMatching(/module\.waf\.cloudflare_firewall_rule\.bypass\["health"\]: products: .*no function named "set"/) })]);
    const skips = report.zones.find((z) => z.zoneId === ZONE)!.ruleset.rules.filter((r) => r.action === "skip");
    expect(skips).toEqual([expect.objectContaining({ enabled: false, description: expect.stringContaining('module.waf.cloudflare_firewall_rule.bypass["health"]') })]);
    const unresolved = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED" && f.details.attribute === "products");
    expect(unresolved).toEqual([expect.objectContaining({ address: 'module.waf.cloudflare_firewall_rule.bypass["health"]', details: expect.objectContaining({ possibleBypass: true, reason: expect.stringMatching(/^terraform rejects it: /) }) })]);
  });

  it('products = "waf" (a string, not a set: terraform rejects it too): an input error AND a possible bypass', async () => {
    const { exitCode, report } = await scan(tree('"waf"'));
    expect(exitCode).toBe(2);
    expect(report.errors).toEqual([expect.objectContaining({ file: "../../main.tf", message: expect.stringMatching(/module\.waf\.cloudflare_firewall_rule\.bypass\["health"\]: products: .*set of string required/) })]);
    const skips = report.zones.find((z) => z.zoneId === ZONE)!.ruleset.rules.filter((r) => r.action === "skip");
    expect(skips).toEqual([expect.objectContaining({ enabled: false })]);
    const unresolved = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED" && f.details.attribute === "products");
    expect(unresolved).toEqual([expect.objectContaining({ details: expect.objectContaining({ possibleBypass: true, reason: expect.stringMatching(/^terraform rejects it: /) }) })]);
  });

  it('products = ["waf"]: a known bypass, enabled skip rule, no error (unchanged)', async () => {
    const { exitCode, report } = await scan(tree('["waf"]'));
    expect(exitCode).toBe(0);
    expect(report.errors).toEqual([]);
    const skips = report.zones.find((z) => z.zoneId === ZONE)!.ruleset.rules.filter((r) => r.action === "skip");
    expect(skips).toHaveLength(1);
    expect(skips[0]!.enabled).not.toBe(false);
  });
});
