// PLAN.md step 2 copies ruleset.tf into the root module. When the root already declares the resource
// ruleset.tf holds, a copy declares it twice and terraform refuses the root (Duplicate resource): step 3's
// import then fails. Two real shapes: cf-terraforming's output written into the root itself and passed as
// --from-cf-terraforming, and a kept for_each resource (filtered by terraform.workspace) that the first
// workspace's plan already had copied in. Step 2 then has nothing to copy and says where it is declared.
import { copyFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const STAGING = "3a4b5c6d7e8f90112233445566778899";
const PROD = "4b5c6d7e8f9011223344556677889900";

const KEPT = `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {
  for_each = { for ws, zone in { staging = "${STAGING}", prod = "${PROD}" } : ws => zone if ws == terraform.workspace }

  kind    = "zone"
  name    = "default"
  phase   = "http_request_firewall_managed"
  zone_id = each.value

  rules {
    action = "execute"
    action_parameters {
      id = "efb7b8c949ac4650a09736fc376e9aee"
    }
    expression  = "true"
    description = "Cloudflare Managed Ruleset"
    enabled     = true
  }
}
`;

function root(): string {
  const top = tempDir("cfwm-declared-");
  cpSync(path.join(TESTDATA, "workspace-zone-lookup"), path.join(top, "live"), { recursive: true });
  return path.join(top, "live");
}

async function plan(dir: string, ws: "staging" | "prod", cft: string, out: string) {
  const zone = ws === "staging" ? STAGING : PROD;
  const r = await runCli(["plan", ".", "--state", `terraform.tfstate.d/${ws}/terraform.tfstate`, "--from-cf-terraforming", cft, "--ruleset-id", `${zone}=aaaabbbbccccddddeeeeffff0000111${ws === "staging" ? 1 : 2}`, "--out-dir", out, "--format", "json", "--quiet"], { cwd: dir });
  expect(r.exitCode, r.stderr).toBe(0);
  const md = readFileSync(path.join(dir, out, "PLAN.md"), "utf8");
  return md.slice(md.indexOf("### 2."), md.indexOf("### 3."));
}

describe("plan step 2 when the root already declares the ruleset resource", () => {
  it("cf-terraforming's output in the root itself: no cp, the note names its file and line", async () => {
    const dir = root();
    writeFileSync(path.join(dir, "cloudflare_ruleset.tf"), KEPT);
    const step2 = await plan(dir, "staging", "cloudflare_ruleset.tf", "out");
    expect(step2).not.toContain("cp ");
    expect(step2).toContain("cloudflare_ruleset.terraform_managed_resource_abc is already declared in the root module (./cloudflare_ruleset.tf:1): nothing to copy for it");
    // migrate.sh's own check finds it declared, so it would import into it.
    expect(readFileSync(path.join(dir, "out", "migrate.sh"), "utf8")).toContain("declares_ruleset 'terraform_managed_resource_abc'");
  });

  it("the second workspace's plan, after the first one's copy: no second copy of the kept for_each resource", async () => {
    const dir = root();
    writeFileSync(path.join(dir, "..", "cft.tf"), KEPT);
    // The artifacts outside the root: a ruleset.tf below it would be read as a root of its own.
    const first = await plan(dir, "staging", "../cft.tf", "../out-staging");
    expect(first).toContain("cp '../out-staging/ruleset.tf' ./cf-waf-migrate-ruleset-staging.tf");
    expect(first).toContain("has count/for_each of its own and is copied as written (no workspace count is added)");
    copyFileSync(path.join(dir, "..", "out-staging", "ruleset.tf"), path.join(dir, "cf-waf-migrate-ruleset-staging.tf"));
    const second = await plan(dir, "prod", "../cft.tf", "../out-prod");
    expect(second).not.toContain("cp ");
    expect(second).toMatch(/cloudflare_ruleset\.terraform_managed_resource_abc is already declared in the root module \(\.\/cf-waf-migrate-ruleset-staging\.tf:\d+\)/);
  });
});
