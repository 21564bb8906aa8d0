// A state instance of a legacy resource whose block is still in config, but whose count/for_each (or its
// module's) no longer gives it: `count = 0` in production, a key that left the for_each map or the tfvars.
// Config and state join on the resource, so before this the instance passed as configured: no finding said
// that the next `terraform plan` would destroy it (which resets the live WAF setting).
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

interface Finding {
  code: string;
  severity: string;
  address: string | null;
  message: string;
  details?: { instance?: string; terraformWould?: string; reason?: string };
}
interface Report {
  zones: { zoneId: string; stateRemovals: string[] }[];
  findings: Finding[];
}

const Z1 = "3f1bc18efe333337886cd2d0f6fa0000";
const Z2 = "9a7806061c88ada191ed06f989cc3dac";
const PROVIDER = 'provider["registry.terraform.io/cloudflare/cloudflare"]';

function instance(attributes: Record<string, unknown>, key?: string | number): Record<string, unknown> {
  return { ...(key !== undefined ? { index_key: key } : {}), schema_version: 0, attributes, sensitive_attributes: [] };
}

function writeState(dir: string, resources: Record<string, unknown>[]): string {
  const file = path.join(dir, "terraform.tfstate");
  writeFileSync(file, JSON.stringify({ version: 4, terraform_version: "1.11.4", serial: 1, lineage: "l", outputs: {}, resources }));
  return file;
}

async function plan(args: string[]): Promise<Report> {
  const r = await runCli(["plan", ...args, "--format", "json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

/** A root module in a fresh directory: the terraform block, then `body`. */
function rootWith(body: string): string {
  const dir = tempDir("cfwm-unconfigured-");
  writeFileSync(path.join(dir, "main.tf"), `${TERRAFORM}${body}`);
  return dir;
}

/** A legacy rule's state instance in zone Z1. */
const ruleInstance = (id: string, mode: string, key?: string | number) => instance({ id, rule_id: id, zone_id: Z1, package_id: "p", group_id: "g", mode }, key);

const drift = (r: Report) => r.findings.filter((f) => f.code === "STATE_CONFIG_DRIFT");

const TERRAFORM = `terraform {
  required_providers {
    cloudflare = { source = "cloudflare/cloudflare", version = "~> 3.30" }
  }
}
`;

describe("state instances the configuration no longer gives", () => {
  // A copy outside the repository: a plan in place would read all of testdata for other roots' module calls.
  const root = copyFixture("realworld-staging-count");
  const state = path.join(root, "terraform.tfstate");

  it("count = 0 (production) while state holds x[0]: STATE_CONFIG_DRIFT names it and says terraform would destroy it; step 5 still removes it", async () => {
    const report = await plan([root, "--state", state, "--var", "environment=production"]);
    const found = drift(report);
    expect(found).toHaveLength(1);
    expect(found[0]!.address).toBe("cloudflare_waf_group.noisy[0]");
    expect(found[0]!.severity).toBe("warning");
    expect(found[0]!.message).toContain("count gives 0 instances here");
    expect(found[0]!.message).toContain("would destroy it");
    // Offline, the values are the ones read here: the workspace's own var file may still give the instance.
    expect(found[0]!.message).toContain("if this workspace runs with others, pass them with --var-file");
    expect(found[0]!.details).toMatchObject({ instance: "cloudflare_waf_group.noisy[0]", terraformWould: "destroy" });
    // Not taken for migrated or forgotten: it is still removed from state before its block goes.
    expect(report.zones[0]!.stateRemovals).toContain("cloudflare_waf_group.noisy[0]");
  });

  it("count = 1 (staging): the instance is configured, no drift", async () => {
    const report = await plan([root, "--state", state, "--var", "environment=staging"]);
    expect(drift(report)).toEqual([]);
  });

  it("for_each keys from toset([...]) and a module for_each over tfvars: the keys that left are named, the others are not", async () => {
    const dir = tempDir("cfwm-unconfigured-");
    mkdirSync(path.join(dir, "modules", "waf"), { recursive: true });
    writeFileSync(
      path.join(dir, "main.tf"),
      `${TERRAFORM}
variable "zones" { type = map(string) }

module "waf" {
  source   = "./modules/waf"
  for_each = var.zones
  zone_id  = each.value
}

resource "cloudflare_waf_rule" "tuned" {
  for_each = toset(["100000356", "100000357"])
  zone_id  = "${Z1}"
  rule_id  = each.key
  mode     = "simulate"
}

resource "cloudflare_waf_rule" "added_count" {
  count   = 1
  zone_id = "${Z1}"
  rule_id = "100000400"
  mode    = "simulate"
}
`,
    );
    writeFileSync(
      path.join(dir, "modules", "waf", "main.tf"),
      `variable "zone_id" { type = string }

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "c504870194831cd12c3fc0284f294abb"
  sensitivity = "low"
  action_mode = "block"
}
`,
    );
    writeFileSync(path.join(dir, "terraform.tfvars"), `zones = { shop = "${Z1}" }\n`);
    const pkg = (zone: string) => instance({ id: "c504870194831cd12c3fc0284f294abb", zone_id: zone, package_id: "c504870194831cd12c3fc0284f294abb", sensitivity: "low", action_mode: "block" });
    const rule = (id: string, key?: string | number) => ruleInstance(id, "simulate", key);
    const stateFile = writeState(dir, [
      { module: 'module.waf["shop"]', mode: "managed", type: "cloudflare_waf_package", name: "owasp", provider: PROVIDER, instances: [pkg(Z1)] },
      { module: 'module.waf["blog"]', mode: "managed", type: "cloudflare_waf_package", name: "owasp", provider: PROVIDER, instances: [pkg(Z2)] },
      { mode: "managed", type: "cloudflare_waf_rule", name: "tuned", provider: PROVIDER, instances: [rule("100000356", "100000356"), rule("100000999", "100000999")] },
      // Created before `count` was added: terraform moves `x` to `x[0]` by itself, nothing is destroyed.
      { mode: "managed", type: "cloudflare_waf_rule", name: "added_count", provider: PROVIDER, instances: [rule("100000400")] },
    ]);
    const report = await plan([dir, "--state", stateFile]);
    const found = drift(report).filter((f) => f.details?.terraformWould === "destroy");
    expect(found.map((f) => f.address).sort()).toEqual(['cloudflare_waf_rule.tuned["100000999"]', 'module.waf["blog"].cloudflare_waf_package.owasp']);
    // The reverse: "100000357" is configured and state lacks it (terraform would create it).
    const created = drift(report).filter((f) => f.details?.terraformWould === "create");
    expect(created.map((f) => f.address)).toEqual(['cloudflare_waf_rule.tuned["100000357"]']);
    expect(created[0]!.message).toContain("is configured but not in state: it was never applied");
    const tuned = found.find((f) => f.address === 'cloudflare_waf_rule.tuned["100000999"]')!;
    expect(tuned.message).toContain('for_each no longer has this key, only "100000356", "100000357"');
    const blog = found.find((f) => f.address?.startsWith("module.waf"))!;
    expect(blog.message).toContain("the module call's count/for_each no longer gives its module instance");
    const removals = report.zones.flatMap((z) => z.stateRemovals);
    expect(removals).toContain('cloudflare_waf_rule.tuned["100000999"]');
    expect(removals).toContain('module.waf["blog"].cloudflare_waf_package.owasp');
  });

  it("the reverse: a key added to the tfvars and not applied yet is named (terraform would create it); the ruleset and step 5 follow state", async () => {
    const dir = rootWith(`
variable "rules" { type = map(string) }

resource "cloudflare_waf_rule" "r" {
  for_each = var.rules
  zone_id  = "${Z1}"
  rule_id  = each.key
  mode     = each.value
}
`);
    writeFileSync(path.join(dir, "terraform.tfvars"), `rules = {\n  "100015" = "disable"\n  "100016" = "disable"\n}\n`);
    const stateFile = writeState(dir, [
      { mode: "managed", type: "cloudflare_waf_rule", name: "r", provider: PROVIDER, instances: [ruleInstance("100015", "disable", "100015")] },
    ]);
    const report = await plan([dir, "--state", stateFile]);
    const found = drift(report);
    expect(found.map((f) => [f.address, f.severity, f.details?.terraformWould])).toEqual([['cloudflare_waf_rule.r["100016"]', "warning", "create"]]);
    expect(found[0]!.message).toContain("the generated ruleset does not carry it; apply it before migrating if it is wanted");
    expect(report.zones[0]!.stateRemovals).toEqual(['cloudflare_waf_rule.r["100015"]']);

    // Without state nothing is compared.
    const configOnly = await plan([dir]);
    expect(drift(configOnly)).toEqual([]);
  });

  it("a moved block names the resource: terraform moves the instance, nothing is claimed", async () => {
    const dir = rootWith(`
resource "cloudflare_waf_rule" "tuned" {
  for_each = toset(["100000356"])
  zone_id  = "${Z1}"
  rule_id  = each.key
  mode     = "simulate"
}

moved {
  from = cloudflare_waf_rule.tuned["old"]
  to   = cloudflare_waf_rule.tuned["100000356"]
}
`);
    const stateFile = writeState(dir, [
      { mode: "managed", type: "cloudflare_waf_rule", name: "tuned", provider: PROVIDER, instances: [instance({ id: "100000356", rule_id: "100000356", zone_id: Z1, mode: "simulate" }, "old")] },
    ]);
    expect(drift(await plan([dir, "--state", stateFile]))).toEqual([]);
  });

  it("for_each keys unknown offline: nothing is claimed", async () => {
    const dir = rootWith(`
variable "rules" { type = set(string) }

resource "cloudflare_waf_rule" "tuned" {
  for_each = var.rules
  zone_id  = "${Z1}"
  rule_id  = each.key
  mode     = "simulate"
}
`);
    const stateFile = writeState(dir, [
      { mode: "managed", type: "cloudflare_waf_rule", name: "tuned", provider: PROVIDER, instances: [instance({ id: "1", rule_id: "1", zone_id: Z1, mode: "simulate" }, "1")] },
    ]);
    expect(drift(await plan([dir, "--state", stateFile]))).toEqual([]);
  });
});
