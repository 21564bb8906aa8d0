// --from-cf-terraforming with a kept resource whose for_each also names zones this plan does not import:
// planned for one workspace (testdata/workspace-zone-lookup: workspaces staging and prod, the zone from
// `lookup(var.zones, terraform.workspace)`), `for_each = { staging = …, prod = … }` was imported into
// ["staging"] and copied as written: after the import, terraform plan/apply in workspace staging would create
// ["prod"], a second entry point for the zone prod's WAF lives in. Now plan refuses it at the resource, and
// apply (the resource copied into the root by hand) refuses it before any change.
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { snapshot } from "../apply/helpers.js";
import { runCli, TESTDATA } from "../support/cli.js";
import { copyFixture, fakeTerraformBin, tempDir } from "../support/workdir.js";

const STAGING = "3a4b5c6d7e8f90112233445566778899";
const PROD = "4b5c6d7e8f9011223344556677889900";
const RS = "aaaabbbbccccddddeeeeffff00001111";

const resource = (forEach: string) =>
  `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  for_each = ${forEach}\n\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = each.value\n\n  rules {\n    action = "execute"\n    action_parameters {\n      id = "efb7b8c949ac4650a09736fc376e9aee"\n    }\n    expression  = "true"\n    description = "Cloudflare Managed Ruleset"\n    enabled     = true\n  }\n}\n`;
const BOTH = `{\n    staging = "${STAGING}"\n    prod    = "${PROD}"\n  }`;

/** testdata/workspace-zone-lookup in a scratch directory, with cf-terraforming's file next to the root. */
function workspaceRoot(cft: string): string {
  const top = tempDir("cfwm-cft-other-zones-");
  cpSync(path.join(TESTDATA, "workspace-zone-lookup"), path.join(top, "live"), { recursive: true });
  writeFileSync(path.join(top, "cft.tf"), cft);
  return path.join(top, "live");
}

const planArgs = (state: string) => ["plan", ".", "--state", state, "--from-cf-terraforming", "../cft.tf", "--ruleset-id", `${STAGING}=${RS}`, "--out-dir", "out", "--format", "json", "--quiet"];

describe("plan --from-cf-terraforming: a kept for_each naming zones this plan does not import", () => {
  it("one workspace's plan, for_each over both workspaces' zones: refused at the resource, exit 2, nothing written", async () => {
    const root = workspaceRoot(resource(BOTH));
    const r = await runCli(planArgs("terraform.tfstate.d/staging/terraform.tfstate"), { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(existsSync(path.join(root, "out"))).toBe(false);
    const errors = JSON.parse(r.stdout).errors.filter((e: { file: string }) => e.file === "../cft.tf");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 1 });
    expect(errors[0].message).toContain(`cloudflare_ruleset.terraform_managed_resource_abc has for_each with 2 instances, and the plan of root . (workspace staging) imports only ["staging"] (zone ${STAGING}): ["prod"] (zone ${PROD}) is imported by no zone of this plan and not in this state`);
    expect(errors[0].message).toContain("terraform plan/apply in workspace staging would create it");
    expect(errors[0].message).toContain("write one resource per zone, without count/for_each");
    expect(r.stderr).toContain("../cft.tf:1: cloudflare_ruleset.terraform_managed_resource_abc has for_each");
  });

  it("the same for_each filtered by terraform.workspace plans: one instance, imported into [\"staging\"]", async () => {
    const root = workspaceRoot(resource(`{ for ws, zone in ${BOTH} : ws => zone if ws == terraform.workspace }`));
    const r = await runCli(planArgs("terraform.tfstate.d/staging/terraform.tfstate"), { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).zones.map((z: { imports: { to: string }[] }) => z.imports[0]!.to)).toEqual(['cloudflare_ruleset.terraform_managed_resource_abc["staging"]']);
    expect(readFileSync(path.join(root, "out/ruleset.tf"), "utf8")).toContain('resource "cloudflare_ruleset" "terraform_managed_resource_abc"');
  });

  // testdata/multi-zone: one state, zones shop and blog. A third key names a zone without legacy WAF here.
  const SHOP = "0da42c8d2132a9ddaf714f9e7c920711";
  const BLOG = "9a7806061c88ada191ed06f989cc3dac";
  const OTHER = "5c6d7e8f901122334455667788990011";
  const three = `{\n    shop  = "${SHOP}"\n    blog  = "${BLOG}"\n    other = "${OTHER}"\n  }`;

  it("one workspace, for_each also naming a zone this root does not migrate: refused, unless the state holds that instance", async () => {
    const root = copyFixture("multi-zone");
    const cft = path.join(tempDir("cfwm-cft-other-zones-"), "cft.tf");
    writeFileSync(cft, resource(three));
    const args = ["plan", ".", "--state", "terraform.tfstate", "--from-cf-terraforming", cft, "--out-dir", "out", "--format", "json", "--quiet"];
    const r = await runCli(args, { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(existsSync(path.join(root, "out"))).toBe(false);
    const error = JSON.parse(r.stdout).errors.find((e: { message: string }) => e.message.startsWith("cloudflare_ruleset.terraform_managed_resource_abc "));
    expect(error).toMatchObject({ line: 1 });
    expect(error.message).toContain(`imports only ["blog"] (zone ${BLOG}), ["shop"] (zone ${SHOP}): ["other"] (zone ${OTHER}) is imported by no zone of this plan`);

    // Already in this state (migrated before): nothing would be created, and the plan goes on.
    const statePath = path.join(root, "terraform.tfstate");
    const state = JSON.parse(readFileSync(statePath, "utf8"));
    state.resources.push({
      mode: "managed",
      type: "cloudflare_ruleset",
      name: "terraform_managed_resource_abc",
      provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
      instances: [{ index_key: "other", schema_version: 0, attributes: { id: RS, zone_id: OTHER, kind: "zone", name: "default", phase: "http_request_firewall_managed" }, sensitive_attributes: [] }],
    });
    writeFileSync(statePath, JSON.stringify(state, null, 2));
    const ok = await runCli(args, { cwd: root });
    expect(ok.exitCode, ok.stderr).not.toBe(2);
    expect(JSON.parse(ok.stdout).errors).toEqual([]);
  });
});

describe("apply in one workspace: a ruleset resource whose for_each also names another workspace's zone", () => {
  /** `apply --workspace staging --yes` in the root, through the fake terraform; its argv log. */
  async function applyStaging(root: string) {
    const log = path.join(tempDir("cfwm-cft-other-zones-log-"), "argv.log");
    const env = { PATH: `${fakeTerraformBin()}${path.delimiter}${process.env.PATH}`, FAKE_TF_LOG: log, TF_WORKSPACE: "staging" };
    const r = await runCli(["apply", ".", "--workspace", "staging", "--ruleset-id", `${STAGING}=${RS}`, "--yes"], { cwd: root, env });
    const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[]) : [];
    return { ...r, calls };
  }

  it("is refused at its line before any change: nothing imported, nothing removed, every file as it was", async () => {
    const root = workspaceRoot("");
    writeFileSync(path.join(root, "cf-waf-migrate-ruleset-staging.tf"), resource(BOTH));
    const before = snapshot(root);
    const r = await applyStaging(root);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("cf-waf-migrate-ruleset-staging.tf:1: cloudflare_ruleset.terraform_managed_resource_abc has count or for_each, and this run imports only ");
    expect(r.stderr).toContain(`cloudflare_ruleset.terraform_managed_resource_abc["prod"] (zone ${PROD}) is neither imported by this run nor in this state, so terraform plan/apply here would create it`);
    expect(r.calls.some((c) => c[0] === "import" || (c[0] === "state" && c[1] === "rm"))).toBe(false);
    expect(snapshot(root)).toEqual(before);
  });

  it("filtered by terraform.workspace, it is imported into [\"staging\"]", async () => {
    const root = workspaceRoot("");
    writeFileSync(path.join(root, "cf-waf-migrate-ruleset-staging.tf"), resource(`{ for ws, zone in ${BOTH} : ws => zone if ws == terraform.workspace }`));
    const r = await applyStaging(root);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.calls.filter((c) => c[0] === "import")).toEqual([["import", "-input=false", "-no-color", 'cloudflare_ruleset.terraform_managed_resource_abc["staging"]', `zone/${STAGING}/${RS}`]]);
  });
});
