// A repository whose top directory is a root itself (the account's Page Rules) with the environments as roots
// below it (testdata/nested-roots: envs/staging and envs/production). Terraform reads a root module's own
// files only; a plan of envs/staging reads the top root that way too. (Regression: the top root was read
// with every directory below it, so it claimed staging's own legacy WAF as its own: a LEGACY_WAF_IN_OTHER_ROOT
// error against the root being planned, which migrate.sh and apply refuse on.)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";
import { byCode, type Finding } from "./split-stacks-repository.js";

const STAGING_ZONE = "9b3c4d5e6f708192a3b4c5d6e7f8091a";

function repository(): string {
  const top = copyFixture("nested-roots");
  mkdirSync(path.join(top, ".git"));
  return top;
}

async function planJson(args: string[], cwd: string): Promise<{ findings: Finding[] }> {
  const r = await runCli(["plan", ...args, "--format", "json"], { cwd });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("a root at the top of the repository, with roots below it", () => {
  it("a plan of a root below it: the top root's own Page Rule is found, staging's own legacy WAF is not another root's", async () => {
    const top = repository();
    for (const [args, cwd, shown] of [
      [["envs/staging"], top, "."],
      [["."], path.join(top, "envs/staging"), "../.."],
    ] as const) {
      const report = await planJson([...args], cwd);
      const others = report.findings.filter((f) => f.details?.otherRoot !== undefined);
      expect(others.map((f) => [f.code, f.details?.otherRoot, f.details?.address])).toEqual([["BYPASS_IN_OTHER_ROOT", shown, "cloudflare_page_rule.admin_no_waf"]]);
      expect(others[0]!.zoneId).toBe(STAGING_ZONE);
      expect(byCode(report, "LEGACY_WAF_IN_OTHER_ROOT")).toEqual([]);
    }
  });

  it("a plan of the top root: the roots below are others, each read alone (production's zone is not the top root's)", async () => {
    const top = repository();
    const report = await planJson(["."], top);
    // `plan .` at the top is the estate: three roots, each with its own zones, nothing about other roots.
    expect(report.findings.filter((f) => f.details?.otherRoot !== undefined)).toEqual([]);
    const roots = new Set(report.findings.map((f) => f.root));
    expect([...roots].sort()).toEqual([".", "envs/production", "envs/staging"]);
  });
});

describe("a module called by the top root and by the roots below it", () => {
  // modules/waf holds the legacy package and an output exposing it; the top root and envs/* call it, and
  // envs/production reads that output. A plan of envs/staging deletes both from the module (step 6).
  function sharedModuleRepository(): string {
    const top = tempDir("cfwm-nested-callers-");
    const files: Record<string, string> = {
      "modules/waf/main.tf": 'variable "zone_id" {\n  type = string\n}\n\nresource "cloudflare_waf_package" "owasp" {\n  zone_id     = var.zone_id\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "low"\n  action_mode = "simulate"\n}\n\noutput "owasp_package" {\n  value = cloudflare_waf_package.owasp\n}\n',
      "main.tf": 'module "waf" {\n  source  = "./modules/waf"\n  zone_id = "1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f"\n}\n',
      "envs/staging/main.tf": 'module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "2c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f"\n}\n',
      "envs/production/main.tf": 'module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "3c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f"\n}\n\noutput "owasp_id" {\n  value = module.waf.owasp_package.id\n}\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(top, file)), { recursive: true });
      writeFileSync(path.join(top, file), text);
    }
    mkdirSync(path.join(top, ".git"));
    return top;
  }

  it("the output production would lose is reported once, as production's, not again as the top root's", async () => {
    const top = sharedModuleRepository();
    const report = await planJson(["."], path.join(top, "envs/staging"));
    const refs = byCode(report, "LEGACY_REFERENCE");
    expect(refs.map((f) => [f.file, f.line, f.details?.otherRoot, f.severity])).toEqual([["../production/main.tf", 6, "../production", "error"]]);
  });
});
