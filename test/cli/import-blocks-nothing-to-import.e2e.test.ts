// IMPORT_BLOCKS_UNAVAILABLE says step 3 must use `terraform import` because import {} blocks may be missing.
// With nothing to import (the root's only legacy block has count = 0 here) it was still reported by plan and
// gate, and with required_version >= 1.5 plan wrote an empty imports.tf. Now neither.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

function root(requiredVersion: string | null): string {
  const dir = tempDir("cfwm-noimport-");
  writeFileSync(
    path.join(dir, "main.tf"),
    `terraform {
${requiredVersion ? `  required_version = "${requiredVersion}"\n` : ""}  required_providers {
    cloudflare = { source = "cloudflare/cloudflare", version = "~> 3.30" }
  }
}

variable "environment" { type = string }

resource "cloudflare_waf_group" "noisy" {
  count      = var.environment == "staging" ? 1 : 0
  zone_id    = "3f1bc18efe333337886cd2d0f6fa0000"
  package_id = "1e334934fd7ae32ad705667f8c1057aa"
  group_id   = "de677e5818985db1285d0e80225f06e5"
  mode       = "off"
}
`,
  );
  return dir;
}

async function codes(command: string, dir: string, environment: string): Promise<string[]> {
  const r = await runCli([command, dir, "--var", `environment=${environment}`, "--format", "json", "--fail-on", "never"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
}

describe("IMPORT_BLOCKS_UNAVAILABLE only when something is imported", () => {
  it("no required_version, nothing to import (count = 0): neither plan nor gate reports it", async () => {
    const dir = root(null);
    expect(await codes("plan", dir, "production")).not.toContain("IMPORT_BLOCKS_UNAVAILABLE");
    expect(await codes("gate", dir, "production")).not.toContain("IMPORT_BLOCKS_UNAVAILABLE");
  });

  it("the same root with an instance (staging) imports its ruleset: reported", async () => {
    const dir = root(null);
    expect(await codes("plan", dir, "staging")).toContain("IMPORT_BLOCKS_UNAVAILABLE");
    expect(await codes("gate", dir, "staging")).toContain("IMPORT_BLOCKS_UNAVAILABLE");
  });

  it("plan --out-dir with nothing to import: no imports.tf, PLAN.md says there is nothing to import", async () => {
    const dir = root(">= 1.5");
    const out = path.join(tempDir(), "migration");
    const r = await runCli(["plan", dir, "--var", "environment=production", "--out-dir", out, "--format", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(path.join(out, "imports.tf"))).toBe(false);
    const md = readFileSync(path.join(out, "PLAN.md"), "utf8");
    expect(md).toContain("- No imports.tf: nothing to import.");
    expect(md).toContain("nothing to import here");
    expect(md).not.toContain("import {} blocks in imports.tf");
  });
});
