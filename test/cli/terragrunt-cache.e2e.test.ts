// A terragrunt repository after `terragrunt run --all -- init`: each unit whose terragrunt.hcl names a
// `terraform { source }` gets a working copy of that module under `.terragrunt-cache/<hash>/<hash>/`.
// A scan of the repository reads the module once, where it is written, not again in every unit's copy (each
// copy would be a root of its own, with the same legacy resources found twice); a path given inside the
// cache is still read.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const MODULE = `variable "zone_id" {
  type = string
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "block"
}
`;

function terragruntRepo(): { top: string; cache: string } {
  const top = tempDir("cfwm-tg-");
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(top, rel)), { recursive: true });
    writeFileSync(path.join(top, rel), text);
  };
  write("modules/waf/main.tf", MODULE);
  for (const unit of ["shop", "blog"]) {
    write(`live/${unit}/terragrunt.hcl`, `terraform {\n  source = "../../modules/waf"\n}\n\ninputs = {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n}\n`);
    write(`live/${unit}/.terragrunt-cache/pV1x9qk2/Xb7Lr0aZ/main.tf`, MODULE);
    write(`live/${unit}/.terragrunt-cache/pV1x9qk2/Xb7Lr0aZ/terragrunt.hcl`, `terraform {\n  source = "../../modules/waf"\n}\n`);
  }
  return { top, cache: "live/shop/.terragrunt-cache/pV1x9qk2/Xb7Lr0aZ" };
}

interface Report {
  findings: { code: string; file?: string }[];
}

const legacyFiles = (r: Report) => r.findings.filter((f) => f.code === "LEGACY_WAF_RESOURCE").map((f) => f.file);

describe("terragrunt's .terragrunt-cache", () => {
  it("is not walked: the module's legacy resource is found once, in modules/waf", async () => {
    const { top } = terragruntRepo();
    const r = await runCli(["scan", ".", "--format", "json", "--quiet"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(legacyFiles(JSON.parse(r.stdout) as Report)).toEqual(["modules/waf/main.tf"]);
  });

  it("is read when named: a path inside it is scanned like any other", async () => {
    const { top, cache } = terragruntRepo();
    const r = await runCli(["scan", cache, "--format", "json", "--quiet"], { cwd: top });
    expect(r.exitCode, r.stderr).toBe(0);
    // Paths in a report are relative to the path scanned.
    expect(legacyFiles(JSON.parse(r.stdout) as Report)).toEqual(["main.tf"]);
  });
});
