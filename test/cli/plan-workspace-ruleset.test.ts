// plan --out-dir for a root with workspaces (testdata/estate's live/staging: eu and us, each its own zone):
// the generated ruleset of each workspace exists only in that workspace. `default` is limited too when
// another workspace of the root is in the run; a root with `default` alone keeps the plain file; a
// resource kept from cf-terraforming gets the count as well; a zone two workspaces share has one ruleset,
// limited to the workspace that holds it.
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const EU = "1b2c3d4e5f60718293a4b5c6d7e8f901";
const US = "2c3d4e5f60718293a4b5c6d7e8f90112";

function staging(): string {
  const top = tempDir("cfwm-ws-ruleset-");
  cpSync(path.join(TESTDATA, "estate/live/staging"), path.join(top, "live/staging"), { recursive: true });
  cpSync(path.join(TESTDATA, "estate/modules"), path.join(top, "modules"), { recursive: true });
  return path.join(top, "live/staging");
}

const read = (dir: string, ...p: string[]) => readFileSync(path.join(dir, ...p), "utf8");

describe("plan --out-dir: one workspace's ruleset per file, limited to that workspace", () => {
  it("default with another workspace in the run is limited too; cf-terraforming's kept resource gets the count", async () => {
    const root = staging();
    // eu's state becomes the default workspace's: default and us.
    renameSync(path.join(root, "terraform.tfstate.d/eu/terraform.tfstate"), path.join(root, "terraform.tfstate"));
    rmSync(path.join(root, "terraform.tfstate.d/eu"), { recursive: true });
    const cft = path.join(root, "..", "cft.tf");
    writeFileSync(cft, `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = "${US}"\n}\n`);
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--state", "terraform.tfstate.d/us/terraform.tfstate", "--from-cf-terraforming", cft, "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const def = path.join(root, "out/_root");
    expect(read(def, "ruleset.tf")).toContain(`resource "cloudflare_ruleset" "waf_managed_${EU.slice(0, 8)}_default" {\n  count = terraform.workspace == "default" ? 1 : 0\n`);
    expect(read(def, "PLAN.md")).toContain("./cf-waf-migrate-ruleset-default.tf");
    expect(read(def, "migrate.sh")).toContain(`the root module declares no cloudflare_ruleset.waf_managed_${EU.slice(0, 8)}_default (workspace default)`);
    const us = path.join(root, "out/_root/us");
    expect(read(us, "ruleset.tf")).toContain(`resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  count = terraform.workspace == "us" ? 1 : 0\n\n  kind    = "zone"`);
    expect(read(us, "PLAN.md")).toContain("terraform import 'cloudflare_ruleset.terraform_managed_resource_abc[0]'");
    expect(read(us, "PLAN.md")).toContain("imports.tf targets the instances of workspace us");
    const report = JSON.parse(read(us, "report.json"));
    expect(report.zones.map((z: { imports: { to: string }[] }) => z.imports[0]!.to)).toEqual(["cloudflare_ruleset.terraform_managed_resource_abc[0]"]);
  });

  it("two workspaces sharing a zone: one ruleset, in one of them and limited to it (ZONE_SPLIT_ACROSS_ROOTS); the other has nothing to copy", async () => {
    const root = staging();
    const usState = path.join(root, "terraform.tfstate.d/us/terraform.tfstate");
    writeFileSync(usState, readFileSync(usState, "utf8").replaceAll(US, EU));
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate.d/eu/terraform.tfstate", "--state", "terraform.tfstate.d/us/terraform.tfstate", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.findings.filter((f: { code: string }) => f.code === "ZONE_SPLIT_ACROSS_ROOTS").map((f: { workspace: string }) => f.workspace)).toEqual(["eu"]);
    expect(read(root, "out/_root/eu/ruleset.tf")).toContain(`resource "cloudflare_ruleset" "waf_managed_${EU.slice(0, 8)}_eu" {\n  count = terraform.workspace == "eu" ? 1 : 0\n`);
    // us only feeds eu's ruleset: nothing to copy, and its ruleset.tf declares nothing.
    expect(read(root, "out/_root/us/ruleset.tf")).toBe(`# No entry point ruleset in this root module: nothing to copy (PLAN.md step 2).\n# ${EU}: its ruleset is planned in . (workspace eu) (ZONE_SPLIT_ACROSS_ROOTS).\n`);
    expect(read(root, "out/_root/us/PLAN.md")).not.toContain("cf-waf-migrate-ruleset-us.tf");
    expect(read(root, "out/_root/us/migrate.sh")).not.toContain("declares_ruleset");
    expect(read(root, "out/_root/us/PLAN.md")).not.toContain("terraform import '");
  });

  it("a root with its default workspace alone keeps the plain ruleset and file name", async () => {
    const root = staging();
    renameSync(path.join(root, "terraform.tfstate.d/eu/terraform.tfstate"), path.join(root, "terraform.tfstate"));
    rmSync(path.join(root, "terraform.tfstate.d"), { recursive: true });
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(read(root, "out/ruleset.tf")).toContain(`resource "cloudflare_ruleset" "waf_managed_${EU.slice(0, 8)}" {\n  zone_id`);
    expect(read(root, "out/PLAN.md")).toContain("' ./cf-waf-migrate-ruleset.tf");
    // Every migrate.sh checks the ruleset is declared; only a root shared by workspaces names its own file.
    expect(read(root, "out/migrate.sh")).not.toContain("every workspace of this root has its own file");
    expect(read(root, "out/migrate.sh")).toContain("copy ruleset.tf to ./cf-waf-migrate-ruleset.tf first (PLAN.md step 2). Nothing was changed");
  });
});

describe("plan --out-dir of one workspace of a root with others: step 6 of PLAN.md", () => {
  it("says the blocks are the other workspaces' too and to delete them only once no workspace holds a legacy instance", async () => {
    const root = staging();
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate.d/eu/terraform.tfstate", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const md = read(root, "out/PLAN.md");
    const step6 = md.slice(md.indexOf("### 6."), md.indexOf("### 7."));
    expect(step6).toContain("the root has other workspaces than eu, and the blocks are theirs too");
    expect(step6).toContain("`terraform workspace list`, then `TF_WORKSPACE=NAME terraform state list` in each");
    // What it says migrate.sh does, migrate.sh does.
    expect(read(root, "out/migrate.sh")).toContain("still hold legacy instances, and the blocks are theirs too");
  });

  it("a root with default alone says nothing of other workspaces", async () => {
    const root = staging();
    renameSync(path.join(root, "terraform.tfstate.d/eu/terraform.tfstate"), path.join(root, "terraform.tfstate"));
    rmSync(path.join(root, "terraform.tfstate.d"), { recursive: true });
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(read(root, "out/PLAN.md")).not.toContain("the root has other workspaces");
  });
});
