// Root variable values (tfvars precedence, --var-file, --var) and the evaluation of a configuration tree:
// module inputs through the call chain, for_each module and resource instances, locals, file().
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { InputError } from "../../src/core/model.js";
import { Unknown } from "../../src/core/tf-expr/values.js";
import { automaticVarFiles, loadRootVariables, parseVarArg, readVarFile } from "../../src/terraform/config/tfvars.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { tempDir } from "../support/workdir.js";

function tree(files: Record<string, string>): string {
  const dir = tempDir("cfwm-values-");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const load = (dir: string, variables = { varFiles: [] as string[], vars: [] as string[] }, statePaths: string[] = []) =>
  loadWorkspace({ paths: [dir], statePaths, cwd: dir, readStdin: async () => Buffer.alloc(0), variables });

describe("root variable values", () => {
  it("follow Terraform's order: terraform.tfvars, terraform.tfvars.json, *.auto.tfvars(.json) by name, then --var-file, then --var", async () => {
    const dir = tree({
      "terraform.tfvars": 'a = "tfvars"\nb = "tfvars"\nc = "tfvars"\nd = "tfvars"\ne = "tfvars"\nf = "tfvars"\n',
      "terraform.tfvars.json": '{"b": "json", "c": "json", "d": "json", "e": "json", "f": "json"}',
      "b.auto.tfvars": 'c = "b.auto"\nd = "b.auto"\ne = "b.auto"\nf = "b.auto"\n',
      "a.auto.tfvars.json": '{"c": "a.auto", "d": "a.auto"}',
      "extra.tfvars": 'e = "var-file"\nf = "var-file"\n',
      "ignored.tfvars": 'a = "never read"\n',
    });
    expect(automaticVarFiles(dir).map((f) => path.basename(f))).toEqual(["terraform.tfvars", "terraform.tfvars.json", "a.auto.tfvars.json", "b.auto.tfvars"]);
    const errors: InputError[] = [];
    const get = await loadRootVariables([dir], { varFiles: ["extra.tfvars"], vars: ["f=cli"] }, dir, dir, errors);
    expect(errors).toEqual([]);
    expect(get(dir)).toEqual({ a: "tfvars", b: "json", c: "b.auto", d: "b.auto", e: "var-file", f: "cli" });
  });

  it("reads maps and lists in HCL and JSON tfvars; a reference in a tfvars file is unknown", async () => {
    const dir = tree({
      "x.tfvars": 'rules = { a = { action = "bypass", products = ["waf"] } }\nref = var.other\n',
      "y.tfvars.json": '{"rules": {"b": {"expression": "${not.a.template}"}}}',
    });
    const errors: InputError[] = [];
    const x = await readVarFile(path.join(dir, "x.tfvars"), dir, errors);
    expect(x.rules).toEqual({ a: { action: "bypass", products: ["waf"] } });
    expect(x.ref).toBeInstanceOf(Unknown);
    const y = await readVarFile(path.join(dir, "y.tfvars.json"), dir, errors);
    expect(y.rules).toEqual({ b: { expression: "${not.a.template}" } });
    expect(errors).toEqual([]);
  });

  it("a malformed tfvars file is an input error with file, line and column", async () => {
    const dir = tree({ "bad.tfvars": 'a = "ok"\nb = {\n' });
    const errors: InputError[] = [];
    await readVarFile(path.join(dir, "bad.tfvars"), dir, errors);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.file).toBe("bad.tfvars");
    expect(errors[0]!.line).toBeGreaterThan(0);
  });

  it("--var: a string, or an HCL list/map when it looks like one; a malformed pair is an error", () => {
    const errors: InputError[] = [];
    expect(parseVarArg("mode=simulate", errors)).toEqual(["mode", "simulate"]);
    expect(parseVarArg("x=a=b", errors)).toEqual(["x", "a=b"]);
    expect(parseVarArg('rules={ a = { action = "bypass" } }', errors)).toEqual(["rules", { a: { action: "bypass" } }]);
    expect(parseVarArg('products=["waf"]', errors)).toEqual(["products", ["waf"]]);
    expect(errors).toEqual([]);
    expect(parseVarArg("=x", errors)).toBeNull();
    expect(parseVarArg("rules={ a = ", errors)).toBeNull();
    expect(errors.map((e) => e.file)).toEqual(["--var", "--var"]);
  });
});

describe("evaluating the configuration", () => {
  it("module inputs through two levels, variable defaults, locals and conditionals", async () => {
    const dir = tree({
      "main.tf": 'variable "env" {\n  default = "staging"\n}\nmodule "a" {\n  source = "./a"\n  level = var.env == "production" ? "high" : "low"\n}\n',
      "a/main.tf": 'variable "level" {}\nmodule "b" {\n  source = "../b"\n  sensitivity = var.level\n}\n',
      "b/main.tf":
        'variable "sensitivity" {}\nvariable "mode" {\n  default = "simulate"\n}\nlocals {\n  zone = "0da42c8d2132a9ddaf714f9e7c920711"\n}\nresource "cloudflare_waf_package" "p" {\n  zone_id = local.zone\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = var.sensitivity\n  action_mode = var.mode\n}\n',
    });
    const ws = await load(dir);
    expect(ws.errors).toEqual([]);
    const p = ws.domain.packages[0]!;
    expect(p.ref.address).toBe("module.a.module.b.cloudflare_waf_package.p");
    expect(p.ref.zoneId).toBe("0da42c8d2132a9ddaf714f9e7c920711");
    expect([p.sensitivity, p.actionMode, p.unresolved]).toEqual(["low", "simulate", undefined]);
    const prod = await load(dir, { varFiles: [], vars: ["env=production"] });
    expect(prod.domain.packages[0]!.sensitivity).toBe("high");
  });

  it("for_each modules give one instance per key, each with its own each.value", async () => {
    const dir = tree({
      "main.tf":
        'locals {\n  zones = {\n    shop = { id = "0da42c8d2132a9ddaf714f9e7c920711", sensitivity = "medium" }\n    blog = { id = "9a7806061c88ada191ed06f989cc3dac", sensitivity = "off" }\n  }\n}\nmodule "waf" {\n  source = "./waf"\n  for_each = local.zones\n  zone_id = each.value.id\n  sensitivity = each.value.sensitivity\n}\n',
      "waf/main.tf": 'variable "zone_id" {}\nvariable "sensitivity" {}\nresource "cloudflare_waf_package" "p" {\n  zone_id = var.zone_id\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = var.sensitivity\n}\n',
    });
    const ws = await load(dir);
    const got = ws.domain.packages.map((p) => [p.ref.address, p.ref.zoneId, p.sensitivity, p.ref.instancesUnknown ?? false]);
    expect(got).toEqual([
      ['module.waf["blog"].cloudflare_waf_package.p', "9a7806061c88ada191ed06f989cc3dac", "off", false],
      ['module.waf["shop"].cloudflare_waf_package.p', "0da42c8d2132a9ddaf714f9e7c920711", "medium", false],
    ]);
  });

  it("a for_each module over a map nobody sets: one entry at the configuration address, instances unknown", async () => {
    const dir = tree({
      "main.tf": 'variable "zones" {}\nmodule "waf" {\n  source = "./waf"\n  for_each = var.zones\n  zone_id = each.value\n}\n',
      "waf/main.tf": 'variable "zone_id" {}\nresource "cloudflare_waf_group" "g" {\n  zone_id = var.zone_id\n  package_id = "1e334934fd7ae32ad705667f8c1057aa"\n  group_id = "de677e5818985db1285d0e80225f06e5"\n  mode = "off"\n}\n',
    });
    const ws = await load(dir);
    const g = ws.resources.find((r) => r.type === "cloudflare_waf_group")!;
    expect([g.address, g.instancesUnknown, g.mayHaveNoInstances]).toEqual(["module.waf.cloudflare_waf_group.g", true, true]);
    // Whether it has any instance (the module's for_each) is as unknown as its zone.
    expect(ws.domain.groups[0]!.unresolved?.map((u) => [u.attribute, u.expression])).toEqual([
      ["for_each", "var.zones"],
      ["zone_id", "var.zone_id"],
    ]);
  });

  it("count known from a tfvars value gives the instance address state lists; count 0 keeps the block, with nothing to remove", async () => {
    const files = {
      "main.tf":
        'variable "environment" {}\nlocals {\n  staging_only = { staging = 1, production = 0 }\n}\nresource "cloudflare_waf_group" "noisy" {\n  count = local.staging_only[var.environment]\n  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"\n  package_id = "1e334934fd7ae32ad705667f8c1057aa"\n  group_id = "de677e5818985db1285d0e80225f06e5"\n  mode = "off"\n}\n',
    };
    const staging = await load(tree({ ...files, "terraform.tfvars": 'environment = "staging"\n' }));
    expect(staging.resources.filter((r) => r.type === "cloudflare_waf_group").map((r) => r.address)).toEqual(["cloudflare_waf_group.noisy[0]"]);
    const production = await load(tree({ ...files, "terraform.tfvars": 'environment = "production"\n' }));
    const group = production.resources.find((r) => r.type === "cloudflare_waf_group")!;
    expect([group.address, group.noInstances]).toEqual(["cloudflare_waf_group.noisy", true]);
    const unknown = await load(tree(files));
    const g = unknown.resources.find((r) => r.type === "cloudflare_waf_group")!;
    expect([g.address, g.noInstances ?? false, g.mayHaveNoInstances]).toEqual(["cloudflare_waf_group.noisy", false, true]);
  });

  it("state values win over config: an unresolved expression of a resource in state is not reported", async () => {
    const dir = tree({
      "main.tf": 'variable "s" {}\nresource "cloudflare_waf_package" "p" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = var.s\n}\n',
      "terraform.tfstate": JSON.stringify({
        version: 4,
        terraform_version: "1.11.0",
        serial: 1,
        lineage: "x",
        outputs: {},
        resources: [
          {
            mode: "managed",
            type: "cloudflare_waf_package",
            name: "p",
            provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
            instances: [{ schema_version: 0, attributes: { id: "a25a9a7e9c00afc1fb2e0245519d725b", zone_id: "0da42c8d2132a9ddaf714f9e7c920711", package_id: "a25a9a7e9c00afc1fb2e0245519d725b", sensitivity: "low", action_mode: "block" } }],
          },
        ],
      }),
    });
    const ws = await load(dir, undefined, [path.join(dir, "terraform.tfstate")]);
    const p = ws.domain.packages[0]!;
    expect([p.sensitivity, p.actionMode, p.unresolved]).toEqual(["low", "block", undefined]);
    const without = await load(dir);
    expect(without.domain.packages[0]!.unresolved?.map((u) => u.attribute)).toEqual(["sensitivity"]);
  });
});
