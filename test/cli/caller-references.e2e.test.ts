// A one-root migration deletes the legacy blocks of a module other roots call too, and the module outputs that
// only expose them: an expression of another caller reading such an output (a module's examples/complete:
// `output "owasp" { value = module.waf.owasp_package }`) would dangle, and that root would no longer plan.
// Found in a real-shaped repository run through the sandbox: apply --remove-shared-blocks left it broken.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { applyWithFakeTerraform } from "../support/fake-apply.js";
import { tempDir } from "../support/workdir.js";
import type { Finding } from "./split-stacks-repository.js";
import { snapshot } from "../apply/helpers.js";

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";

function repository(exampleOutput: string): string {
  const top = tempDir("cfwm-caller-refs-");
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(top, rel)), { recursive: true });
    writeFileSync(path.join(top, rel), text);
  };
  mkdirSync(path.join(top, ".git"));
  write(
    "modules/waf/main.tf",
    `variable "zone_id" {\n  type = string\n}\n\nresource "cloudflare_waf_package" "owasp" {\n  zone_id     = var.zone_id\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "low"\n  action_mode = "simulate"\n}\n\noutput "owasp_package" {\n  value = try(cloudflare_waf_package.owasp, null)\n}\n\noutput "zone" {\n  value = var.zone_id\n}\n`,
  );
  write("modules/waf/examples/complete/main.tf", `variable "zone_id" {\n  type = string\n}\n\nmodule "waf" {\n  source  = "../../"\n  zone_id = var.zone_id\n}\n\n${exampleOutput}`);
  write("live/prod/main.tf", `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "~> 3.35.0"\n    }\n  }\n}\n\nmodule "waf" {\n  source  = "../../modules/waf"\n  zone_id = "${ZONE}"\n}\n`);
  return top;
}

const EXPOSING = `output "owasp" {\n  value = module.waf.owasp_package\n}\n`;


describe("another root calling the module whose legacy blocks a one-root migration deletes", () => {
  it("plan: its output reading a removed module output is a LEGACY_REFERENCE error at it; step 6 and migrate.sh say so", async () => {
    const top = repository(EXPOSING);
    const out = tempDir();
    const r = await runCli(["plan", "live/prod", "--format", "json", "--out-dir", out], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: Finding[]; plan: { steps: { number: number; notes?: string[] }[] } };
    const refs = report.findings.filter((f) => f.code === "LEGACY_REFERENCE");
    expect(refs.map((f) => [f.severity, f.file, f.line, f.details?.otherRoot])).toEqual([["error", "../../modules/waf/examples/complete/main.tf", 10, "../../modules/waf/examples/complete"]]);
    expect(refs[0]!.message).toContain('output "owasp" of root ../../modules/waf/examples/complete (which calls a module step 6 edits) only exposes module.waf.owasp_package');
    expect(report.plan.steps.find((s) => s.number === 6)!.notes!.join("\n")).toContain("LEGACY_REFERENCE (edit by hand before step 6; apply and migrate.sh refuse until then): ../../modules/waf/examples/complete/main.tf:10:");
    expect(readFileSync(path.join(out, "migrate.sh"), "utf8")).toContain("../../modules/waf/examples/complete/main.tf:10:");
  });

  it("nothing when the other caller reads only what stays (an output the migration keeps)", async () => {
    const top = repository(`output "zone" {\n  value = module.waf.zone\n}\n`);
    const r = await runCli(["plan", "live/prod", "--format", "json"], { cwd: top });
    expect((JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => f.code === "LEGACY_REFERENCE")).toEqual([]);
  });

  it("apply refuses before any change, --remove-shared-blocks notwithstanding", async () => {
    const top = repository(EXPOSING);
    writeFileSync(
      path.join(top, "live/prod/terraform.tfstate"),
      JSON.stringify({
        version: 4,
        terraform_version: "1.11.0",
        serial: 2,
        lineage: "caller-refs",
        outputs: {},
        resources: [{ module: "module.waf", mode: "managed", type: "cloudflare_waf_package", name: "owasp", provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]', instances: [{ attributes: { id: "a25a9a7e9c00afc1fb2e0245519d725b", zone_id: ZONE, package_id: "a25a9a7e9c00afc1fb2e0245519d725b", sensitivity: "low", action_mode: "simulate" } }] }],
      }),
    );
    const out = tempDir();
    expect((await runCli(["plan", "live/prod", "--out-dir", out, "--format", "json"], { cwd: top })).exitCode).toBe(0);
    cpSync(path.join(out, "ruleset.tf"), path.join(top, "live/prod/cf-waf-migrate-ruleset.tf"));
    const before = snapshot(top);
    const r = await applyWithFakeTerraform(["--chdir", "live/prod", "--no-rehearsal", "--yes", "--remove-shared-blocks", "--accept-other-root-legacy-waf", "--ruleset-id", `${ZONE}=4814384a9e5d4991b9815dcfc25d2f1f`], top);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain("apply refused, nothing was changed");
    expect(r.stderr).toContain("../../modules/waf/examples/complete/main.tf:10:");
    // Read-only commands only: the refusal comes before any import or state change.
    expect(r.commands.filter((c) => c !== "version" && c !== "state pull" && c !== "state list")).toEqual([]);
    expect(snapshot(top)).toEqual(before);
  });
});
