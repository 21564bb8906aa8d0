// A module call that does not set a variable the module declares without a default: terraform rejects the
// configuration ("Missing required argument"), so scan, gate and plan must not go on as if the root were
// valid. An input error at the module block (exit 2), the dependent values still VALUE_UNRESOLVED, never a
// default. Shape: a module whose examples/basic calls ../../ and forgets zone_id; and a root calling
// ../modules/waf with every variable set, or relying on a default, which stays clean.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const MODULE = `variable "zone_id" {
  type = string
}
variable "sensitivity" {
  type    = string
  default = "medium"
}
resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = var.sensitivity
  action_mode = "challenge"
}
`;

function tree(call: string): string {
  const top = tempDir("cfwm-required-input-");
  const root = path.join(top, "waf", "examples", "basic");
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(top, "waf", "main.tf"), MODULE);
  writeFileSync(path.join(root, "main.tf"), `module "waf" {\n  source = "../../"\n${call}}\n`);
  return root;
}

interface Report {
  errors: { file: string; line: number | null; message: string }[];
  findings: { code: string; message: string }[];
}

describe("a module call missing a required variable", () => {
  it("is an input error at the module block for scan, gate and plan; the zone stays unknown", async () => {
    const root = tree("");
    for (const command of [["scan"], ["gate"], ["plan"]]) {
      const r = await runCli([...command, ".", "--format", "json"], { cwd: root });
      expect(r.exitCode, command.join(" ")).toBe(2);
      const report = JSON.parse(r.stdout) as Report;
      expect(report.errors).toEqual([expect.objectContaining({ file: "main.tf", line: 1 })]);
      expect(report.errors[0]!.message).toContain('module "waf": the argument "zone_id" is required');
      expect(r.stderr).toContain('main.tf:1: module "waf": the argument "zone_id" is required');
      expect(report.findings.some((f) => f.code === "VALUE_UNRESOLVED" && f.message.includes("zone_id = var.zone_id"))).toBe(true);
    }
  });

  it("is nothing when the call sets it, or the variable has a default", async () => {
    const r = await runCli(["scan", ".", "--format", "json"], { cwd: tree('  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Report).errors).toEqual([]);
  });
});
