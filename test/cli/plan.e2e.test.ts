// End-to-end: `cf-waf-migrate plan` on the fixtures, its artifacts, and migrate.sh against the fake terraform.
import { execa } from "execa";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "@cdktn/hcl2json";
import { describe, expect, it } from "vitest";
import { normalizeReport, runCli, TESTDATA } from "../support/cli.js";
import { expectGolden } from "../support/golden.js";
import { copyDir, copyFixture, FAKE_TERRAFORM, fakeTerraformBin, tempDir } from "../support/workdir.js";

const MZ = path.join(TESTDATA, "multi-zone");
const SHOP = "0da42c8d2132a9ddaf714f9e7c920711";
const BLOG = "9a7806061c88ada191ed06f989cc3dac";
const SHOP_RS = "6f1d2a3b4c5d6e7f8091a2b3c4d5e6f7";
const BLOG_RS = "2c0fc9fa937b4d3fb7a4ec1e3f9f8e21";
const IDS = ["--ruleset-id", `${SHOP}=${SHOP_RS}`, "--ruleset-id", `${BLOG}=${BLOG_RS}`];

interface Step {
  number: number;
  title: string;
  commands: string[];
}

async function planJson(args: string[], cwd = multiZoneAlone()) {
  const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--format", "json", ...args], { cwd });
  return { ...r, report: JSON.parse(r.stdout) };
}

// Two tests only read the output of the same read-only run (multi-zone, both ruleset ids, JSON, no --out-dir):
// one CLI process serves both. Each test parses its own copy, so neither can change what the other sees.
let withIds: Promise<Awaited<ReturnType<typeof runCli>>> | undefined;
// In place, multi-zone is one root of this repository, and a plan of it alone also reports the other
// fixtures' WAF bypasses (BYPASS_IN_OTHER_ROOT, VALUE_UNRESOLVED) and reads all of testdata to find them:
// every plan here runs on one copy, a tree of its own (none writes into it; the goldens stay in testdata).
let alone: string | undefined;
const multiZoneAlone = () => (alone ??= copyFixture("multi-zone"));
const planWithIds = () => (withIds ??= runCli(["plan", ".", "--state", "terraform.tfstate", "--format", "json", ...IDS], { cwd: multiZoneAlone() }));

// The three migrate.sh tests ran the same plan (both ruleset ids, --out-dir) each on its own fresh copy of
// multi-zone. migrate.sh and the patches name nothing outside their own directory (HERE, relative paths), so
// one run on one unmodified copy serves all three; each test gets its own copy of the artifacts (the script
// runs from there) and its own copy of the tree to migrate.
let migrationOut: Promise<string> | undefined;
async function migrationArtifacts(): Promise<string> {
  migrationOut ??= (async () => {
    const out = tempDir();
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", ...IDS, "--out-dir", out, "--format", "json"], { cwd: copyFixture("multi-zone") });
    expect(r.exitCode, r.stderr).toBe(0);
    return out;
  })();
  return copyDir(await migrationOut, "plan-out");
}

describe("cf-waf-migrate plan", () => {
  it("JSON: step 0 then the seven steps, state removal before block deletion, every address quoted", async () => {
    const r = await planWithIds();
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    const steps: Step[] = report.plan.steps;
    expect(steps.map((s) => s.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const all = steps.flatMap((s) => s.commands.map((c) => ({ n: s.number, c })));
    const dry = all.findIndex((x) => x.c.startsWith("terraform state rm -dry-run "));
    const real = all.findIndex((x) => /^terraform state rm '/.test(x.c));
    const patch = all.findIndex((x) => x.c === "git apply legacy-removal.patch");
    expect(dry).toBeGreaterThan(-1);
    expect(dry).toBeLessThan(real);
    expect(real).toBeLessThan(patch);
    const removals: string[] = report.zones.flatMap((z: { stateRemovals: string[] }) => z.stateRemovals);
    for (const a of removals) expect(all[real]!.c).toContain(`'${a}'`);
    expect(steps[3]!.commands).toContain(`terraform import 'cloudflare_ruleset.waf_managed_blog_example_org' 'zone/${BLOG}/${BLOG_RS}'`);
    expect(steps[7]!.commands).toEqual(["terraform plan -detailed-exitcode -refresh=false"]);
    // The URI override is deleted in step 0, before the zone can migrate.
    expect(steps[0]!.commands.join("\n")).toContain("terraform apply -target='module.uri_overrides[0].cloudflare_waf_override.checkout'");
    expect(report.findings.some((f: { code: string }) => f.code === "RULESET_ID_UNKNOWN")).toBe(false);
  });

  it("without --ruleset-id the import names <RULESET_ID> and says how to get it", async () => {
    const { report } = await planJson([]);
    const f = report.findings.find((x: { code: string; zoneId: string }) => x.code === "RULESET_ID_UNKNOWN" && x.zoneId === SHOP);
    expect(f.message).toContain(`cf-waf-migrate api entrypoint --zone ${SHOP}`);
    expect(report.zones.find((z: { zoneId: string }) => z.zoneId === SHOP).imports[0].id).toBe(`zone/${SHOP}/<RULESET_ID>`);
  });

  it.each([4, 5])("writes every artifact; ruleset.tf for provider %d re-parses and matches the golden file", async (major) => {
    const out = tempDir();
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", ...IDS, "--provider-major", String(major), "--out-dir", out, "--format", "json"], { cwd: multiZoneAlone() });
    expect(r.exitCode).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["PLAN.md", "imports.tf", "legacy-removal.patch", "migrate.sh", "report.json", "ruleset.tf", "uri-overrides-removal.patch"]);
    const ruleset = readFileSync(path.join(out, "ruleset.tf"), "utf8");
    expectGolden(path.join(MZ, `expected/ruleset.v${major}.tf.golden`), ruleset);
    const parsed = (await parse("ruleset.tf", ruleset)) as { resource: { cloudflare_ruleset: Record<string, unknown[]> } };
    expect(Object.keys(parsed.resource.cloudflare_ruleset).sort()).toEqual(["waf_managed_blog_example_org", "waf_managed_shop_example_com"]);
    const imports = readFileSync(path.join(out, "imports.tf"), "utf8");
    expect(imports).toContain(`id = "${major === 5 ? "zones" : "zone"}/${SHOP}/${SHOP_RS}"`);
    await parse("imports.tf", imports);
    expect(JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")).plan.steps).toHaveLength(8);
  });

  it("offers removed {} blocks only while the lock pins provider <= 3.35 and Terraform >= 1.7 wrote the state", async () => {
    const work = copyFixture("multi-zone");
    const statePath = path.join(work, "terraform.tfstate");
    const state = JSON.parse(readFileSync(statePath, "utf8"));
    writeFileSync(statePath, JSON.stringify({ ...state, terraform_version: "1.9.8" }));
    const out = tempDir();
    await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", out, "--format", "json"], { cwd: work });
    const removed = readFileSync(path.join(out, "removed.tf"), "utf8");
    expect(removed).toContain("from = module.waf.cloudflare_waf_package.owasp");
    expect(removed).toContain("destroy = false");
    expect(removed).not.toMatch(/\[/); // `from` cannot carry instance keys
    await parse("removed.tf", removed);
    // A lock past 3.35 has no legacy schema: only state rm then.
    writeFileSync(path.join(work, ".terraform.lock.hcl"), readFileSync(path.join(work, ".terraform.lock.hcl"), "utf8").replace('"3.35.0"', '"4.52.8"'));
    const out2 = tempDir();
    await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", out2, "--format", "json"], { cwd: work });
    expect(existsSync(path.join(out2, "removed.tf"))).toBe(false);
  });

  it("the artifacts' PLAN.md is stable (golden)", async () => {
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", ...IDS, "--format", "markdown"], { cwd: multiZoneAlone() });
    expectGolden(path.join(MZ, "expected/PLAN.md"), r.stdout.replace(/cf-waf-migrate \d+\.\d+\.\d+\S*/, "cf-waf-migrate <version>"));
  });

  it("never overwrites an existing file without --force, and writes nothing then", async () => {
    const out = tempDir();
    writeFileSync(path.join(out, "PLAN.md"), "mine");
    const r = await runCli(["plan", multiZoneAlone(), "--state", path.join(multiZoneAlone(), "terraform.tfstate"), "--out-dir", out, "--format", "json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/already has PLAN\.md.*--force/);
    expect(readdirSync(out)).toEqual(["PLAN.md"]);
    expect(readFileSync(path.join(out, "PLAN.md"), "utf8")).toBe("mine");
    const forced = await runCli(["plan", multiZoneAlone(), "--state", path.join(multiZoneAlone(), "terraform.tfstate"), "--out-dir", out, "--force", "--format", "json"]);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(path.join(out, "PLAN.md"), "utf8")).toMatch(/^# WAF migration plan/);
  });

  it("the patches apply with git apply and change nothing but the legacy blocks", async () => {
    const work = copyFixture("multi-zone");
    const out = tempDir();
    await runCli(["plan", ".", "--state", "terraform.tfstate", "--out-dir", out, "--format", "json"], { cwd: work });
    const before = snapshot(work);
    await execa("git", ["apply", path.join(out, "uri-overrides-removal.patch")], { cwd: work });
    await execa("git", ["apply", path.join(out, "legacy-removal.patch")], { cwd: work });
    const after = snapshot(work);
    const changed = Object.keys(before).filter((f) => before[f] !== after[f]).sort();
    expect(changed).toEqual(["modules/uri-overrides/main.tf", "modules/waf/main.tf", "waf-rules.tf.json"]);
    // The edited HCL files lost exactly their legacy blocks: every remaining line was there before, in order.
    for (const f of changed.filter((x) => x.endsWith(".tf"))) expect(isSubsequence(after[f]!.split("\n"), before[f]!.split("\n"))).toBe(true);
    // The JSON file lost its resource member and nothing else.
    const { resource: _gone, ...rest } = JSON.parse(before["waf-rules.tf.json"]!);
    expect(JSON.parse(after["waf-rules.tf.json"]!)).toEqual(rest);
    const rescan = JSON.parse((await runCli(["scan", ".", "--format", "json"], { cwd: work })).stdout);
    expect(rescan.errors).toEqual([]);
    expect(rescan.resources.filter((r: { type: string }) => r.type.startsWith("cloudflare_waf_"))).toEqual([]);
  });

  it("migrate.sh runs against the fake terraform: exact argv, dry run before real removal, steps in order; a second run resumes", async () => {
    const work = copyFixture("multi-zone");
    const out = await migrationArtifacts();
    // PLAN.md step 2: migrate.sh refuses to start without the ruleset it imports declared.
    copyFileSync(path.join(out, "ruleset.tf"), path.join(work, "cf-waf-migrate-ruleset.tf"));
    const log = path.join(tempDir(), "argv.log");
    // Step 0 (outside the script): the override blocks are gone and applied (terraform apply deleted it).
    await execa("git", ["apply", path.join(out, "uri-overrides-removal.patch")], { cwd: work });
    await execa("node", [FAKE_TERRAFORM, "state", "rm", "-backup=-", "module.uri_overrides[0].cloudflare_waf_override.checkout"], { cwd: work });
    const env = { PATH: `${fakeTerraformBin()}:${process.env.PATH}`, FAKE_TF_LOG: log };
    const run = await execa("bash", [path.join(out, "migrate.sh"), "--yes"], { cwd: work, env, reject: false });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const calls = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[]);
    const significant = calls.filter((c) => c[0] !== "state" || c[1] !== "list");
    // The fixture's module reads data "cloudflare_waf_packages", which terraform import would read and the
    // retired API refuses once the zone is migrated: the import and its plan come after step 6.
    expect(run.stdout).toContain("The configuration reads legacy data sources");
    expect(significant.map((c) => c.slice(0, 2).join(" "))).toEqual([
      // Step 0: is the state here the one the plan read (its lineage)? (read-only)
      "workspace show",
      "state pull",
      "state rm",
      "state rm",
      // Before step 6: does another workspace still hold the blocks? (read-only)
      "workspace show",
      "workspace list",
      "import cloudflare_ruleset.waf_managed_shop_example_com",
      "import cloudflare_ruleset.waf_managed_blog_example_org",
      "plan -refresh=false",
      "plan -detailed-exitcode",
    ]);
    const [dryRun, realRm] = significant.filter((c) => c[1] === "rm");
    expect(dryRun![2]).toBe("-dry-run");
    expect(dryRun!.slice(3)).toEqual(realRm!.slice(2));
    expect(realRm).toContain('module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]');
    expect(significant[6]).toEqual(["import", "cloudflare_ruleset.waf_managed_shop_example_com", `zone/${SHOP}/${SHOP_RS}`]);
    // Every package, group and rule is gone from state.
    const state = JSON.parse(readFileSync(path.join(work, "terraform.tfstate"), "utf8"));
    expect(state.resources.filter((r: { type: string }) => /^cloudflare_waf_(package|group|rule)s?$/.test(r.type)).map((r: { type: string }) => r.type)).toEqual([]);
    expect(existsSync(path.join(work, "modules/waf/main.tf")) && readFileSync(path.join(work, "modules/waf/main.tf"), "utf8")).not.toContain("cloudflare_waf_package");

    writeFileSync(log, "");
    const again = await execa("bash", [path.join(out, "migrate.sh"), "--yes"], { cwd: work, env, reject: false });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain("already in state: skipping the import");
    expect(again.stdout).toContain("no instance of a legacy resource in state");
    expect(again.stdout).toContain("already deleted: skipping");
    const second = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[]);
    expect(second.some((c) => c[0] === "import" || c[1] === "rm")).toBe(false);
  });

  it("migrate.sh keeps the legacy blocks while another workspace of the root still holds them, and deletes them once it has migrated", async () => {
    const work = copyFixture("multi-zone");
    const out = await migrationArtifacts();
    // PLAN.md step 2: migrate.sh refuses to start without the ruleset it imports declared.
    copyFileSync(path.join(out, "ruleset.tf"), path.join(work, "cf-waf-migrate-ruleset.tf"));
    await execa("git", ["apply", path.join(out, "uri-overrides-removal.patch")], { cwd: work });
    await execa("node", [FAKE_TERRAFORM, "state", "rm", "-backup=-", "module.uri_overrides[0].cloudflare_waf_override.checkout"], { cwd: work });
    // Workspace `staging` (the local backend's layout) has not migrated: its state holds the legacy instances.
    const staging = path.join(work, "terraform.tfstate.d", "staging", "terraform.tfstate");
    mkdirSync(path.dirname(staging), { recursive: true });
    copyFileSync(path.join(work, "terraform.tfstate"), staging);
    const stagingBefore = readFileSync(staging, "utf8");
    const legacyBefore = readFileSync(path.join(work, "modules/waf/main.tf"), "utf8");
    const env = { PATH: `${fakeTerraformBin()}:${process.env.PATH}` };

    const first = await execa("bash", [path.join(out, "migrate.sh"), "--yes"], { cwd: work, env, reject: false });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain("stopping before step 6: workspace(s) staging of this root still hold legacy instances");
    expect(readFileSync(path.join(work, "modules/waf/main.tf"), "utf8")).toBe(legacyBefore);
    const own = JSON.parse(readFileSync(path.join(work, "terraform.tfstate"), "utf8")) as { resources: { type: string }[] };
    expect(own.resources.filter((r) => /^cloudflare_waf_/.test(r.type))).toEqual([]);
    // staging's state was only read.
    expect(readFileSync(staging, "utf8")).toBe(stagingBefore);

    const stagingState = JSON.parse(readFileSync(staging, "utf8")) as { resources: { type: string }[] };
    stagingState.resources = stagingState.resources.filter((r) => !/^cloudflare_waf_/.test(r.type));
    writeFileSync(staging, JSON.stringify(stagingState));
    const second = await execa("bash", [path.join(out, "migrate.sh"), "--yes"], { cwd: work, env, reject: false });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).not.toContain("stopping before step 6");
    expect(readFileSync(path.join(work, "modules/waf/main.tf"), "utf8")).not.toContain("cloudflare_waf_package");
  });

  it("migrate.sh refuses to change state without --yes when nobody can answer, and honours TF=tofu", async () => {
    const work = copyFixture("multi-zone");
    const out = await migrationArtifacts();
    // PLAN.md step 2: migrate.sh refuses to start without the ruleset it imports declared.
    copyFileSync(path.join(out, "ruleset.tf"), path.join(work, "cf-waf-migrate-ruleset.tf"));
    const log = path.join(tempDir(), "argv.log");
    await execa("git", ["apply", path.join(out, "uri-overrides-removal.patch")], { cwd: work });
    await execa("node", [FAKE_TERRAFORM, "state", "rm", "-backup=-", "module.uri_overrides[0].cloudflare_waf_override.checkout"], { cwd: work });
    const env = { PATH: `${fakeTerraformBin()}:${process.env.PATH}`, FAKE_TF_LOG: log, TF: "tofu" };
    const run = await execa("bash", [path.join(out, "migrate.sh")], { cwd: work, env, reject: false, stdin: "ignore" });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/refusing without --yes/);
    // Only the read-only checks before any change ran (the state's lineage, a state list, through tofu).
    const ran = (existsSync(log) ? readFileSync(log, "utf8") : "").trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as string[]);
    expect(ran.every((c) => (c[0] === "state" && (c[1] === "list" || c[1] === "pull")) || (c[0] === "workspace" && c[1] === "show"))).toBe(true);
  });

  it("--config-json makes the ruleset exactly the service's configuration", async () => {
    const { report } = await planJson(["--config-json", `${BLOG}=${path.join(TESTDATA, "service-config-blog.json")}`]);
    const service = JSON.parse(readFileSync(path.join(TESTDATA, "service-config-blog.json"), "utf8")).result;
    const blog = report.zones.find((z: { zoneId: string }) => z.zoneId === BLOG);
    expect(blog.ruleset).toEqual(service);
    expect(report.findings.filter((f: { code: string; zoneId: string }) => f.zoneId === BLOG && f.code === "MANAGED_OVERRIDE_UNMAPPED")).toEqual([]);
    // Core rule set overrides are still not migrated by the service either.
    expect(report.findings.some((f: { code: string; zoneId: string }) => f.zoneId === BLOG && f.code === "CRS_OVERRIDE_NOT_MIGRATED")).toBe(true);
  });

  it("--from-cf-terraforming keeps only the http_request_firewall_managed resource and imports into its name", async () => {
    const out = tempDir();
    const src = path.join(TESTDATA, "cf-terraforming-rulesets.tf");
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", ...IDS, "--from-cf-terraforming", src, "--out-dir", out, "--format", "json"], { cwd: multiZoneAlone() });
    const report = JSON.parse(r.stdout);
    const blog = report.zones.find((z: { zoneId: string }) => z.zoneId === BLOG);
    expect(blog.imports[0].to).toBe("cloudflare_ruleset.terraform_managed_resource_2c0fc9fa937b4d3fb7a4ec1e3f9f8e21_1");
    const ruleset = readFileSync(path.join(out, "ruleset.tf"), "utf8");
    expect(ruleset).toContain('resource "cloudflare_ruleset" "terraform_managed_resource_2c0fc9fa937b4d3fb7a4ec1e3f9f8e21_1"');
    expect(ruleset).not.toContain("http_request_firewall_custom");
    expect(ruleset).not.toContain("http_ratelimit");
  });

  it("--format shell prints migrate.sh and text prints the steps", async () => {
    const sh = await runCli(["plan", multiZoneAlone(), "--state", path.join(multiZoneAlone(), "terraform.tfstate"), "--format", "shell"]);
    expect(sh.stdout).toMatch(/^#!\/usr\/bin\/env bash\n/);
    expect(sh.stdout).toContain("set -euo pipefail");
    const text = await runCli(["plan", multiZoneAlone(), "--state", path.join(multiZoneAlone(), "terraform.tfstate"), "--format", "text"]);
    expect(text.stdout).toContain("5. Remove the legacy package, group and rule resources from state (dry run first)");
  });

  it("config only: root addresses are removed as written; instances of a for_each module over a known map are named as state lists them", async () => {
    const r = await runCli(["plan", multiZoneAlone(), "--format", "json"]);
    const report = JSON.parse(r.stdout);
    const rm: string = report.plan.steps[5].commands.find((c: string) => c.startsWith("terraform state rm '"));
    expect(rm.startsWith("terraform state rm 'cloudflare_waf_rule.owasp_uri' 'cloudflare_waf_rule.sqli_strict' ")).toBe(true);
    // module "waf" { for_each = local.waf_zones }: the map's keys are known offline, its values hold zone references.
    expect(rm).toContain(`'module.waf["shop"].cloudflare_waf_group.off["de677e5818985db1285d0e80225f06e5"]'`);
    expect(rm).toContain(`'module.waf["blog"].cloudflare_waf_package.owasp'`);
    expect(report.findings.some((f: { code: string; details?: { configAddresses?: unknown } }) => f.code === "VALUE_UNRESOLVED" && f.details?.configAddresses)).toBe(false);
  });

  it("config only, Terraform >= 1.6: imports.tf interpolates a root zone reference, also when a for_each module's input names it", async () => {
    const dir = copyFixture("multi-zone");
    const main = path.join(dir, "main.tf");
    writeFileSync(main, readFileSync(main, "utf8").replace('required_version = ">= 1.5.0"', 'required_version = ">= 1.6.0"'));
    const out = tempDir();
    await runCli(["plan", ".", "--out-dir", out, "--format", "json"], { cwd: dir });
    const imports = readFileSync(path.join(out, "imports.tf"), "utf8");
    const parsed = (await parse("imports.tf", imports)) as { import: { to: string; id: string }[] };
    const ids = parsed.import.map((i) => i.id).sort();
    // module "waf" passes each.value.zone_id = cloudflare_zone.shop.id: the same zone as the root's rules,
    // not a third zone known only as var.zone_id.
    expect(ids).toEqual(["zone/${cloudflare_zone.blog.id}/<RULESET_ID>", "zone/${cloudflare_zone.shop.id}/<RULESET_ID>"]);
  });

  it("config only, required_version admitting Terraform 1.5: imports.tf has literal ids (1.5 refuses references in an import id) and names the zone to fill in", async () => {
    const out = tempDir();
    await runCli(["plan", multiZoneAlone(), "--out-dir", out, "--format", "json"]);
    const imports = readFileSync(path.join(out, "imports.tf"), "utf8");
    const parsed = (await parse("imports.tf", imports)) as { import: { to: string; id: string }[] };
    expect(parsed.import.map((i) => i.id)).toEqual(["zone/<ZONE_ID>/<RULESET_ID>", "zone/<ZONE_ID>/<RULESET_ID>"]);
    expect(imports).not.toContain("${");
    expect(imports).toContain("put the id of cloudflare_zone.blog.id here");
    expect(imports).toContain("put the id of cloudflare_zone.shop.id here");
  });

  it("the report stays the scan report plus the plan (golden JSON)", async () => {
    const r = await planWithIds();
    expect(r.exitCode).toBe(0);
    expectGolden(path.join(MZ, "expected/plan.json"), JSON.stringify(normalizeReport(r.stdout), null, 2) + "\n");
  });
});

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p, "latin1");
    }
  };
  walk(dir);
  return out;
}

function isSubsequence(small: string[], big: string[]): boolean {
  let i = 0;
  for (const line of big) if (i < small.length && small[i] === line) i++;
  return i === small.length;
}
