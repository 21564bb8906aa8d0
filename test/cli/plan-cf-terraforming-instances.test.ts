// --from-cf-terraforming over several instances: a resource whose zone_id names a zone serves that zone
// only. With one resource and one zone per instance, it was taken for every instance's zone, whatever
// zone_id it had (testdata/estate's live/staging: workspaces eu and us, each its own zone).
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const US = "2c3d4e5f60718293a4b5c6d7e8f90112";

describe("plan --from-cf-terraforming over two workspaces", () => {
  it("uses a resource for the zone its zone_id names, not for the other workspace's zone", async () => {
    const top = tempDir("cfwm-cft-instances-");
    cpSync(path.join(TESTDATA, "estate/live/staging"), path.join(top, "live/staging"), { recursive: true });
    cpSync(path.join(TESTDATA, "estate/modules"), path.join(top, "modules"), { recursive: true });
    const root = path.join(top, "live/staging");
    writeFileSync(path.join(top, "cft.tf"), `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = "${US}"\n}\n`);
    const states = ["eu", "us"].flatMap((ws) => ["--state", `terraform.tfstate.d/${ws}/terraform.tfstate`]);
    const r = await runCli(["plan", ".", ...states, "--from-cf-terraforming", "../../cft.tf", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const eu = readFileSync(path.join(root, "out/_root/eu/ruleset.tf"), "utf8");
    expect(eu).not.toContain("terraform_managed_resource_abc");
    expect(eu).not.toContain(US);
    expect(readFileSync(path.join(root, "out/_root/us/ruleset.tf"), "utf8")).toContain(`resource "cloudflare_ruleset" "terraform_managed_resource_abc"`);
  });

  // A kept resource that already has for_each (one resource for both workspaces' zones) was imported into
  // `x[0]`, an instance a for_each resource does not have: terraform refuses it, or imports the wrong one.
  const forEachResource = (forEach: string) =>
    `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  for_each = ${forEach}\n\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = each.value\n}\n`;

  function staging(cft: string) {
    const top = tempDir("cfwm-cft-for-each-");
    cpSync(path.join(TESTDATA, "estate/live/staging"), path.join(top, "live/staging"), { recursive: true });
    cpSync(path.join(TESTDATA, "estate/modules"), path.join(top, "modules"), { recursive: true });
    writeFileSync(path.join(top, "cft.tf"), cft);
    return path.join(top, "live/staging");
  }

  it("a resource with for_each keyed by workspace is imported into the key of this workspace's zone (imports.tf, PLAN.md, migrate.sh)", async () => {
    // Filtered to this workspace: in workspace us it has the one instance ["us"] (the eu key would be created there).
    const root = staging(forEachResource(`{ for ws, zone in {\n    eu = "1b2c3d4e5f60718293a4b5c6d7e8f901"\n    us = "${US}"\n  } : ws => zone if ws == terraform.workspace }`));
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate.d/us/terraform.tfstate", "--from-cf-terraforming", "../../cft.tf", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const to = 'cloudflare_ruleset.terraform_managed_resource_abc["us"]';
    expect(JSON.parse(r.stdout).zones[0].imports[0].to).toBe(to);
    expect(readFileSync(path.join(root, "out/imports.tf"), "utf8")).toContain(`to = ${to}`);
    const planMd = readFileSync(path.join(root, "out/PLAN.md"), "utf8");
    expect(planMd).toContain(`${US}: ${to}`);
    expect(planMd).not.toContain("terraform_managed_resource_abc[0]");
    const script = readFileSync(path.join(root, "out/migrate.sh"), "utf8");
    expect(script).toContain(`in_state '${to}'`);
    expect(script).not.toContain("terraform_managed_resource_abc[0]");
  });

  // Planned over both workspaces, the same block went into out/_root/eu/ruleset.tf and out/_root/us/ruleset.tf
  // (with a TODO): copied as PLAN.md says, both files in live/staging declared it, and terraform refuses the
  // root (Duplicate resource "cloudflare_ruleset" configuration); each workspace would also manage the other's zone.
  it("a resource with for_each over both workspaces' zones, planned for both: refused at the resource before anything is written", async () => {
    const root = staging(forEachResource(`{\n    eu = "1b2c3d4e5f60718293a4b5c6d7e8f901"\n    us = "${US}"\n  }`));
    const states = ["eu", "us"].flatMap((ws) => ["--state", `terraform.tfstate.d/${ws}/terraform.tfstate`]);
    const r = await runCli(["plan", ".", ...states, "--from-cf-terraforming", "../../cft.tf", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(existsSync(path.join(root, "out"))).toBe(false);
    const errors = JSON.parse(r.stdout).errors.filter((e: { file: string }) => e.file === "../../cft.tf");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 1 });
    expect(errors[0].message).toContain("cloudflare_ruleset.terraform_managed_resource_abc has for_each and serves zones of workspaces eu, us of root .: ");
    expect(errors[0].message).toContain("terraform refuses the duplicate resource");
    // One resource per zone is what it asks for, and that plans: each workspace's file has its own resource.
    writeFileSync(
      path.join(root, "../../cft.tf"),
      ["eu", "us"].map((ws) => `resource "cloudflare_ruleset" "managed_${ws}" {\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = "${ws === "eu" ? "1b2c3d4e5f60718293a4b5c6d7e8f901" : US}"\n}\n`).join("\n"),
    );
    const ok = await runCli(["plan", ".", ...states, "--from-cf-terraforming", "../../cft.tf", "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(ok.exitCode, ok.stderr).toBe(0);
    const eu = readFileSync(path.join(root, "out/_root/eu/ruleset.tf"), "utf8");
    const us = readFileSync(path.join(root, "out/_root/us/ruleset.tf"), "utf8");
    expect(eu).toContain('resource "cloudflare_ruleset" "managed_eu"');
    expect(eu).not.toContain("managed_us");
    expect(us).toContain('resource "cloudflare_ruleset" "managed_us"');
    expect(us).not.toContain("managed_eu");
  });

  it("a resource whose for_each is not known offline: refused at the resource, nothing written, exit 2, no script", async () => {
    const root = staging(forEachResource("var.zones"));
    const args = ["plan", ".", "--state", "terraform.tfstate.d/us/terraform.tfstate", "--from-cf-terraforming", "../../cft.tf"];
    const r = await runCli([...args, "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(existsSync(path.join(root, "out"))).toBe(false);
    const error = JSON.parse(r.stdout).errors.find((e: { file: string }) => e.file === "../../cft.tf");
    expect(error).toMatchObject({ line: 1 });
    expect(error.message).toContain("the instance to import into is not known: its for_each is not known offline (var.zones");
    const shell = await runCli([...args, "--format", "shell", "--quiet"], { cwd: root });
    expect(shell.exitCode).toBe(2);
    expect(shell.stdout).not.toContain("terraform import");
  });

  it("count on terraform.workspace: [0] where the state says the workspace, refused where it is only assumed", async () => {
    const count = `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  count = terraform.workspace == "us" ? 1 : 0\n\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = "${US}"\n}\n`;
    const root = staging(count);
    const known = await runCli(["plan", ".", "--state", "terraform.tfstate.d/us/terraform.tfstate", "--from-cf-terraforming", "../../cft.tf", "--format", "json", "--quiet"], { cwd: root });
    expect(known.exitCode, known.stderr).toBe(0);
    expect(JSON.parse(known.stdout).zones[0].imports[0].to).toBe("cloudflare_ruleset.terraform_managed_resource_abc[0]");
    // The same state saved elsewhere (`terraform state pull > us.tfstate`): its workspace is not known offline.
    const saved = path.join(tempDir("cfwm-cft-saved-"), "us.tfstate");
    cpSync(path.join(root, "terraform.tfstate.d/us/terraform.tfstate"), saved);
    const assumed = await runCli(["plan", ".", "--state", `.=${saved}`, "--from-cf-terraforming", "../../cft.tf", "--format", "json", "--quiet"], { cwd: root });
    expect(assumed.exitCode).toBe(2);
    expect(JSON.parse(assumed.stdout).errors.map((e: { message: string }) => e.message).join("\n")).toContain("its count is not known offline (terraform.workspace is not known offline");
  });
});

describe("plan --from-cf-terraforming with one for_each resource for several zones of one root", () => {
  // matchExtracted used a resource whose zone_id is an expression only when the root had one zone: with
  // testdata/multi-zone's two zones it was dropped, silently, and a generated ruleset written for each.
  const SHOP = "0da42c8d2132a9ddaf714f9e7c920711";
  const BLOG = "9a7806061c88ada191ed06f989cc3dac";
  it("imports each zone into the instance its for_each names, and ruleset.tf keeps the resource once", async () => {
    const root = copyFixture("multi-zone");
    const cft = path.join(tempDir("cfwm-cft-zones-"), "cft.tf");
    writeFileSync(cft, `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  for_each = {\n    shop = "${SHOP}"\n    blog = "${BLOG}"\n  }\n\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = each.value\n}\n`);
    const ids = ["--ruleset-id", `${SHOP}=6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7`, "--ruleset-id", `${BLOG}=7f1d2a3b4c5d6e7f8091a2b3c4d5e6f7`];
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", ...ids, "--from-cf-terraforming", cft, "--out-dir", "out", "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const imports = Object.fromEntries(JSON.parse(r.stdout).zones.map((z: { zoneId: string; imports: { to: string }[] }) => [z.zoneId, z.imports.map((i) => i.to)]));
    expect(imports).toEqual({ [SHOP]: ['cloudflare_ruleset.terraform_managed_resource_abc["shop"]'], [BLOG]: ['cloudflare_ruleset.terraform_managed_resource_abc["blog"]'] });
    const ruleset = readFileSync(path.join(root, "out/ruleset.tf"), "utf8");
    expect(ruleset.match(/resource "cloudflare_ruleset"/g)).toHaveLength(1);
    expect(ruleset).not.toContain("waf_managed_");
    // Step 1's cf-terraforming output, one file per zone: the resource is shared, so the zone names the file.
    const generate = readFileSync(path.join(root, "out/PLAN.md"), "utf8").match(/cf-terraforming generate .* > (\S+)/g)!;
    const files = generate.map((g) => g.split(" > ")[1]);
    expect(files).toHaveLength(2);
    expect(new Set(files)).toEqual(new Set([`cf-terraforming-terraform_managed_resource_abc-${SHOP.slice(0, 8)}.tf`, `cf-terraforming-terraform_managed_resource_abc-${BLOG.slice(0, 8)}.tf`]));
  });

  it("one whose for_each is not known offline is not used, and a VALUE_UNRESOLVED at its line says so", async () => {
    const root = copyFixture("multi-zone");
    const cft = path.join(tempDir("cfwm-cft-zones-"), "cft.tf");
    writeFileSync(cft, `resource "cloudflare_ruleset" "terraform_managed_resource_abc" {\n  for_each = var.zones\n\n  kind    = "zone"\n  name    = "default"\n  phase   = "http_request_firewall_managed"\n  zone_id = each.value\n}\n`);
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--from-cf-terraforming", cft, "--format", "json", "--quiet"], { cwd: root });
    expect(r.exitCode, r.stderr).not.toBe(2);
    const report = JSON.parse(r.stdout);
    const unused = report.findings.filter((f: { code: string; message: string }) => f.code === "VALUE_UNRESOLVED" && f.message.startsWith("cloudflare_ruleset.terraform_managed_resource_abc "));
    expect(unused).toHaveLength(1);
    expect(unused[0]).toMatchObject({ severity: "warning", line: 1 });
    expect(unused[0].message).toContain("is not used: its for_each is not known offline (var.zones");
    expect(unused[0].message).toContain(`${SHOP}, ${BLOG}`);
    expect(report.zones.flatMap((z: { imports: { to: string }[] }) => z.imports.map((i) => i.to))).toEqual(["cloudflare_ruleset.waf_managed_shop_example_com", "cloudflare_ruleset.waf_managed_blog_example_org"]);
  });
});
