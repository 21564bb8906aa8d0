// A root whose settings come from `yamldecode(file(...))` of a file that is not there: terraform plan fails
// in that root ("Invalid value for \"path\" parameter"). When state gives the zone, the scan used to say
// nothing about the file. It is an input error at the file() call (exit 2), whatever state says, and the
// values stay unknown. `try(...)` and a conditional's result not taken pass over it, as in terraform.
// Shapes: a module whose examples/complete calls ../../ with zones from `${path.module}/zones.yaml`, and a
// root reading `settings/${terraform.workspace}.yaml` whose workspace comes from terraform.tfstate.d/prod.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "3f1bc18efe333337886cd2d0f6fa0000";

const MODULE = `variable "zone_id" {
  type = string
}
variable "sensitivity" {
  type = string
}
resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = var.sensitivity
  action_mode = "simulate"
}
`;

function state(module: string): string {
  return JSON.stringify({
    version: 4,
    terraform_version: "1.11.4",
    serial: 3,
    lineage: "5b0f3c1e-2d4a-4e6b-8c9d-0a1b2c3d4e77",
    outputs: {},
    resources: [
      {
        module,
        mode: "managed",
        type: "cloudflare_waf_package",
        name: "owasp",
        provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
        instances: [{ schema_version: 0, attributes: { id: "a25a9a7e9c00afc1fb2e0245519d725b", package_id: "a25a9a7e9c00afc1fb2e0245519d725b", zone_id: ZONE, sensitivity: "medium", action_mode: "simulate" }, sensitive_attributes: [] }],
      },
    ],
    check_results: null,
  });
}

function example(zones: string): string {
  const top = tempDir("cfwm-missing-file-");
  const root = path.join(top, "waf", "examples", "complete");
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(top, "waf", "main.tf"), MODULE);
  writeFileSync(
    path.join(root, "main.tf"),
    `locals {
  zones = ${zones}
}

module "waf" {
  source      = "../../"
  for_each    = local.zones
  zone_id     = each.value.zone_id
  sensitivity = each.value.sensitivity
}
`,
  );
  writeFileSync(path.join(root, "terraform.tfstate"), state('module.waf["shop"]'));
  return root;
}

interface Report {
  errors: { file: string; line: number | null; column: number | null; message: string }[];
  zones: { zoneId: string }[];
}

async function scan(root: string, args: string[] = ["--state", "terraform.tfstate"]) {
  const r = await runCli(["scan", ".", ...args, "--format", "json"], { cwd: root });
  return { exitCode: r.exitCode, stderr: r.stderr, report: JSON.parse(r.stdout) as Report };
}

describe("file() of a file that is not there", () => {
  it("state gives the zone: still an input error at the file() call, exit 2, the zone still reported", async () => {
    const root = example('yamldecode(file("${path.module}/zones.yaml"))');
    const r = await scan(root);
    expect(r.exitCode).toBe(2);
    expect(r.report.errors).toHaveLength(1);
    expect(r.report.errors[0]).toMatchObject({ file: "main.tf", line: 2, column: 22 });
    expect(r.report.errors[0]!.message).toContain('file("zones.yaml") cannot be read offline: no file exists at zones.yaml');
    expect(r.stderr).toContain("main.tf:2:22: file(\"zones.yaml\")");
    expect(r.report.zones.map((z) => z.zoneId)).toEqual([ZONE]);
  });

  it("settings/${terraform.workspace}.yaml of the state's workspace: the error names that file", async () => {
    const top = tempDir("cfwm-missing-ws-file-");
    const live = path.join(top, "live");
    mkdirSync(path.join(live, "settings"), { recursive: true });
    mkdirSync(path.join(live, "terraform.tfstate.d", "prod"), { recursive: true });
    mkdirSync(path.join(top, "modules", "waf"), { recursive: true });
    writeFileSync(path.join(top, "modules", "waf", "main.tf"), MODULE);
    writeFileSync(
      path.join(live, "main.tf"),
      `locals {
  settings = yamldecode(file("settings/\${terraform.workspace}.yaml"))
}
module "waf" {
  source      = "../modules/waf"
  for_each    = local.settings.zones
  zone_id     = each.value.zone_id
  sensitivity = each.value.sensitivity
}
`,
    );
    writeFileSync(path.join(live, "settings", "staging.yaml"), `zones: { shop: { zone_id: "${ZONE}", sensitivity: low } }\n`);
    writeFileSync(path.join(live, "terraform.tfstate.d", "prod", "terraform.tfstate"), state('module.waf["shop"]'));
    const r = await scan(live, ["--state", "terraform.tfstate.d/prod/terraform.tfstate"]);
    expect(r.exitCode).toBe(2);
    expect(r.report.errors).toEqual([expect.objectContaining({ file: "main.tf", line: 2, column: 25 })]);
    expect(r.report.errors[0]!.message).toContain("no file exists at settings/prod.yaml");
  });

  it("in a .tf.json root: the error is at the file() call inside the JSON string", async () => {
    const root = example('yamldecode(file("${path.module}/zones.yaml"))');
    const { rmSync } = await import("node:fs");
    rmSync(path.join(root, "main.tf"));
    writeFileSync(
      path.join(root, "main.tf.json"),
      `${JSON.stringify(
        {
          locals: { zones: '${yamldecode(file("${path.module}/zones.yaml"))}' },
          module: { waf: { source: "../../", for_each: "${local.zones}", zone_id: "${each.value.zone_id}", sensitivity: "${each.value.sensitivity}" } },
        },
        null,
        2,
      )}\n`,
    );
    const r = await scan(root);
    expect(r.exitCode).toBe(2);
    // Line 3 of the file: `    "zones": "${yamldecode(file(\"${path.module}/zones.yaml\"))}"`, the call at column 28.
    expect(r.report.errors).toEqual([expect.objectContaining({ file: "main.tf.json", line: 3, column: 28 })]);
    expect(r.stderr).toContain('main.tf.json:3:28: file("zones.yaml")');
  });

  it("inside try(...) or a conditional's result not taken: terraform plans, so no error", async () => {
    const fallback = `{ shop = { zone_id = "${ZONE}", sensitivity = "low" } }`;
    for (const zones of [`try(yamldecode(file("\${path.module}/zones.yaml")), ${fallback})`, `false ? yamldecode(file("\${path.module}/zones.yaml")) : ${fallback}`]) {
      const r = await scan(example(zones));
      expect(r.report.errors, zones).toEqual([]);
      expect(r.exitCode, zones).toBe(0);
    }
  });
});
