// scan, plan and apply name one import target for a zone's entry point ruleset. A root that already declares
// the zone's http_request_firewall_managed ruleset (hand-migrated, written without count/for_each) imports
// into that resource: scan's JSON (`zones[].imports`) said the generated `waf_managed_…` one while plan and
// apply said the declared one, so a pipeline reading scan's JSON ran the wrong `terraform import`. Shape: a
// module whose examples/complete calls ../../ with the zone and groups from terraform.tfvars (for_each);
// two roots, one declaring the entry point and one not.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { wafPackageState } from "../support/state.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "0123456789abcdef0123456789abcdef";
const OTHER = "fedcba9876543210fedcba9876543210";

const MODULE = `variable "zone_id" {
  type = string
}
variable "groups" {
  type    = map(string)
  default = {}
}
resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "simulate"
}
resource "cloudflare_waf_group" "g" {
  for_each   = var.groups
  zone_id    = var.zone_id
  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"
  group_id   = each.key
  mode       = each.value
}
`;

function example(declared: boolean): string {
  return `terraform {
  required_version = ">= 1.5.0"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.0"
    }
  }
}
variable "zone_id" { type = string }
variable "groups" { type = map(string) }
module "waf" {
  source  = "../../"
  zone_id = var.zone_id
  groups  = var.groups
}
${
  declared
    ? `
resource "cloudflare_ruleset" "zone_managed" {
  zone_id = var.zone_id
  name    = "managed"
  kind    = "zone"
  phase   = "http_request_firewall_managed"
  rules {
    action = "execute"
    action_parameters {
      id = "efb7b8c949ac4650a09736fc376e9aee"
    }
    expression = "true"
  }
}
`
    : ""
}`;
}

function tree(): string {
  const top = tempDir("cfwm-ep-target-");
  for (const [name, zone, declared] of [["declared", ZONE, true], ["generated", OTHER, false]] as const) {
    const mod = path.join(top, name);
    mkdirSync(path.join(mod, "examples", "complete"), { recursive: true });
    writeFileSync(path.join(mod, "main.tf"), MODULE);
    writeFileSync(path.join(mod, "examples", "complete", "main.tf"), example(declared));
    writeFileSync(path.join(mod, "examples", "complete", "terraform.tfvars"), `zone_id = "${zone}"\ngroups  = { "de5fd7d6b4e34d08b3a9e1e8d9d1c7a1" = "off" }\n`);
  }
  return top;
}

interface Report {
  zones: { zoneId: string; imports: { to: string; id: string }[] }[];
}

async function targets(top: string, name: string, zone: string) {
  const root = path.join(top, name, "examples", "complete");
  const scan = await runCli(["scan", root, "--format", "json"], { cwd: top });
  expect(scan.exitCode, scan.stderr).toBe(0);
  const out = path.join(top, `out-${name}`);
  const plan = await runCli(["plan", root, "--ruleset-id", `${zone}=aaaabbbbccccddddeeeeffff00001111`, "--out-dir", out, "--format", "json", "--quiet"], { cwd: top });
  expect(plan.exitCode, plan.stderr).toBe(0);
  const of = (json: string) => (JSON.parse(json) as Report).zones.find((z) => z.zoneId === zone)!.imports.map((i) => i.to);
  return { scan: of(scan.stdout), plan: of(plan.stdout), importsTf: readFileSync(path.join(out, "imports.tf"), "utf8"), migrate: readFileSync(path.join(out, "migrate.sh"), "utf8") };
}

describe("the zone's entry point import target", () => {
  it("the root declares the entry point: scan, plan, imports.tf and migrate.sh all name the declared resource", async () => {
    const t = await targets(tree(), "declared", ZONE);
    expect(t.scan).toEqual(["cloudflare_ruleset.zone_managed"]);
    expect(t.plan).toEqual(t.scan);
    expect(t.importsTf).toContain("to = cloudflare_ruleset.zone_managed");
    expect(t.importsTf).not.toContain("waf_managed_");
    expect(t.migrate).toContain("cloudflare_ruleset.zone_managed");
    expect(t.migrate).not.toMatch(/cloudflare_ruleset\.waf_managed_/);
  });

  it("the root declares none: scan, plan, imports.tf and migrate.sh all name the generated resource", async () => {
    const t = await targets(tree(), "generated", OTHER);
    expect(t.scan).toEqual(["cloudflare_ruleset.waf_managed_fedcba98"]);
    expect(t.plan).toEqual(t.scan);
    expect(t.importsTf).toContain("to = cloudflare_ruleset.waf_managed_fedcba98");
    expect(t.migrate).toContain("cloudflare_ruleset.waf_managed_fedcba98");
  });
});

// A root two workspaces share (terraform.tfstate.d/eu, /us), settings from YAML keyed by terraform.workspace:
// plan limits each workspace's ruleset to it (`waf_managed_…_eu`, imported into `[0]`); scan named the plain
// generated resource, so its JSON again named an import target plan and migrate.sh never use.
describe("the import target in a root several workspaces share", () => {
  const ZONES = { eu: "1b2c3d4e5f60718293a4b5c6d7e8f901", us: "2c3d4e5f60718293a4b5c6d7e8f90112" } as const;

  function workspaces(): string {
    const top = tempDir("cfwm-ep-workspaces-");
    const live = path.join(top, "live");
    mkdirSync(path.join(top, "modules", "waf"), { recursive: true });
    writeFileSync(path.join(top, "modules", "waf", "main.tf"), MODULE);
    mkdirSync(live, { recursive: true });
    writeFileSync(
      path.join(live, "main.tf"),
      `locals {
  settings = yamldecode(file("\${path.module}/waf.yaml"))[terraform.workspace]
}
module "waf" {
  source  = "../modules/waf"
  zone_id = local.settings.zone_id
  groups  = local.settings.groups
}
`,
    );
    writeFileSync(path.join(live, "waf.yaml"), Object.entries(ZONES).map(([ws, zone]) => `${ws}:\n  zone_id: "${zone}"\n  groups: {}\n`).join(""));
    for (const [ws, zone] of Object.entries(ZONES)) {
      mkdirSync(path.join(live, "terraform.tfstate.d", ws), { recursive: true });
      writeFileSync(
        path.join(live, "terraform.tfstate.d", ws, "terraform.tfstate"),
        JSON.stringify(wafPackageState(zone, { terraformVersion: "1.11.4", lineage: `00000000-0000-4000-8000-0000000000${ws === "eu" ? "01" : "02"}` })),
      );
    }
    return live;
  }

  it("scan --format json names what plan --format json names, per workspace", async () => {
    const live = workspaces();
    const states = Object.keys(ZONES).flatMap((ws) => ["--state", `terraform.tfstate.d/${ws}/terraform.tfstate`]);
    const scan = await runCli(["scan", ".", ...states, "--format", "json"], { cwd: live });
    expect(scan.exitCode, scan.stderr).toBe(0);
    const plan = await runCli(["plan", ".", ...states, "--format", "json", "--quiet"], { cwd: live });
    expect(plan.exitCode, plan.stderr).toBe(0);
    const targets = (json: string) => Object.fromEntries((JSON.parse(json) as { zones: { workspace: string; imports: { to: string }[] }[] }).zones.map((z) => [z.workspace, z.imports.map((i) => i.to)]));
    expect(targets(scan.stdout)).toEqual({ eu: ["cloudflare_ruleset.waf_managed_1b2c3d4e_eu[0]"], us: ["cloudflare_ruleset.waf_managed_2c3d4e5f_us[0]"] });
    expect(targets(plan.stdout)).toEqual(targets(scan.stdout));
  });
});

// The root declares the entry point with for_each over its zones (one ruleset per zone, from terraform.tfvars)
// or with count: each zone imports into its own instance, `cloudflare_ruleset.managed["shop"]`, as apply does
// (apply/preflight.ts); scan and plan named a generated second resource for the same entry point.
describe("the import target when the declared entry point has count or for_each", () => {
  const ZONES = { shop: "3c4d5e6f708192a3b4c5d6e7f8091a2b", blog: "4d5e6f708192a3b4c5d6e7f8091a2b3c" } as const;

  function keyed(repeat: "for_each" | "count"): string {
    const top = tempDir("cfwm-ep-keyed-");
    const live = path.join(top, "live");
    mkdirSync(path.join(top, "modules", "waf"), { recursive: true });
    writeFileSync(path.join(top, "modules", "waf", "main.tf"), MODULE);
    mkdirSync(live, { recursive: true });
    const zones = repeat === "for_each" ? ZONES : { shop: ZONES.shop };
    writeFileSync(
      path.join(live, "main.tf"),
      `terraform {
  required_version = ">= 1.5.0"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.0"
    }
  }
}
variable "zones" { type = map(string) }
module "waf" {
  source   = "../modules/waf"
  for_each = var.zones
  zone_id  = each.value
}
resource "cloudflare_ruleset" "managed" {
  ${repeat === "for_each" ? "for_each = var.zones\n  zone_id  = each.value" : 'count   = 1\n  zone_id = var.zones["shop"]'}
  name    = "managed"
  kind    = "zone"
  phase   = "http_request_firewall_managed"
}
`,
    );
    writeFileSync(path.join(live, "terraform.tfvars"), `zones = {\n${Object.entries(zones).map(([k, v]) => `  ${k} = "${v}"`).join("\n")}\n}\n`);
    return live;
  }

  for (const [repeat, expected] of [
    ["for_each", { [ZONES.shop]: ['cloudflare_ruleset.managed["shop"]'], [ZONES.blog]: ['cloudflare_ruleset.managed["blog"]'] }],
    ["count", { [ZONES.shop]: ["cloudflare_ruleset.managed[0]"] }],
  ] as const) {
    it(`${repeat}: scan, plan and imports.tf name each zone's instance`, async () => {
      const live = keyed(repeat);
      const ids = Object.keys(expected).flatMap((zone) => ["--ruleset-id", `${zone}=aaaabbbbccccddddeeeeffff00001111`]);
      const scan = await runCli(["scan", ".", "--format", "json"], { cwd: live });
      expect(scan.exitCode, scan.stderr).toBe(0);
      const out = path.join(live, "..", "out");
      const plan = await runCli(["plan", ".", ...ids, "--out-dir", out, "--format", "json", "--quiet"], { cwd: live });
      expect(plan.exitCode, plan.stderr).toBe(0);
      const targets = (json: string) => Object.fromEntries((JSON.parse(json) as Report).zones.map((z) => [z.zoneId, z.imports.map((i) => i.to)]));
      expect(targets(scan.stdout)).toEqual(expected);
      expect(targets(plan.stdout)).toEqual(expected);
      const importsTf = readFileSync(path.join(out, "imports.tf"), "utf8");
      for (const [to] of Object.values(expected)) expect(importsTf).toContain(`to = ${to}`);
      expect(importsTf).not.toContain("waf_managed_");
      expect(readFileSync(path.join(out, "migrate.sh"), "utf8")).not.toMatch(/cloudflare_ruleset\.waf_managed_/);
    });
  }
});
