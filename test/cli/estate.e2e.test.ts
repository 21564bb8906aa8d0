// The estate of testdata/estate run through the built CLI: many roots calling one module (identical
// addresses), workspaces, a zone split across two roots, an already-migrated root, a root without
// Cloudflare, and a root whose constraint admits provider 4.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Finding, Report } from "../../src/core/model.js";
import { normalizeReport, runCli, TESTDATA } from "../support/cli.js";
import { expectGolden } from "../support/golden.js";
import { ESTATE_STATES } from "../support/estate.js";
import { tempDir } from "../support/workdir.js";
import { makeSarifValidator } from "../render/sarif-validator.js";
import { calls, envFor, IDS, prepareWork, snapshot } from "../apply/helpers.js";

const ESTATE = path.join(TESTDATA, "estate");
const A = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const B = "1b2c3d4e5f60718293a4b5c6d7e8f901";
const C = "2c3d4e5f60718293a4b5c6d7e8f90112";
const STATES: readonly string[] = ESTATE_STATES;
const stateArgs = (states: readonly string[]) => states.flatMap((s) => ["--state", s]);
const LEGACY = new Set(["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule"]);

async function json(args: string[], cwd = ESTATE): Promise<{ report: Report; exitCode: number; stderr: string }> {
  const r = await runCli([...args, "--format", "json", "--quiet"], { cwd });
  return { report: JSON.parse(r.stdout) as Report, exitCode: r.exitCode, stderr: r.stderr };
}

describe("estate: the issue's example", () => {
  it("reports all three zones and their six legacy instances, and the gate fails for the root that admits provider 4", async () => {
    // Only the two roots and the module, as in the issue.
    const dir = tempDir("cfwm-estate-issue-");
    for (const p of ["live/prod", "live/staging", "modules/legacy-waf/main.tf", "modules/legacy-waf/versions.tf"]) cpSync(path.join(ESTATE, p), path.join(dir, p), { recursive: true });
    const { report, exitCode } = await json(["gate", ".", ...stateArgs(STATES.slice(0, 3))], dir);
    expect(report.errors).toEqual([]);
    expect(exitCode).toBe(1);
    expect(report.zones.map((z) => [z.zoneId, z.root, z.workspace])).toEqual([
      [A, "live/prod", "default"],
      [B, "live/staging", "eu"],
      [C, "live/staging", "us"],
    ]);
    const legacy = report.resources.filter((r) => LEGACY.has(r.type));
    expect(legacy).toHaveLength(6);
    // Identical addresses, three instances, three zones.
    expect(legacy.filter((r) => r.address === "module.waf.cloudflare_waf_package.owasp").map((r) => [r.root, r.workspace, r.zoneId])).toEqual([
      ["live/prod", "default", A],
      ["live/staging", "eu", B],
      ["live/staging", "us", C],
    ]);
    const blocked = report.findings.filter((f) => f.code === "PROVIDER_UPGRADE_BLOCKED");
    expect(blocked.map((f) => [f.root, f.workspace, f.file])).toEqual([
      ["live/staging", "eu", "live/staging/versions.tf"],
      ["live/staging", "us", "live/staging/versions.tf"],
    ]);
    // Each zone's removals are that instance's own.
    for (const z of report.zones) expect(z.stateRemovals).toHaveLength(2);
    expect(report.roots).toEqual([
      { path: "live/prod", workspace: "default", states: ["live/prod/terraform.tfstate"] },
      { path: "live/staging", workspace: "eu", states: ["live/staging/terraform.tfstate.d/eu/terraform.tfstate"] },
      { path: "live/staging", workspace: "us", states: ["live/staging/terraform.tfstate.d/us/terraform.tfstate"] },
    ]);
  });
});

// One scan of the whole estate serves several tests (each CLI run costs seconds on a busy machine).
let scanOnce: Promise<{ report: Report; exitCode: number; stderr: string }> | null = null;
const scanEstate = () => (scanOnce ??= json(["scan", ".", ...stateArgs(STATES)]));

describe("estate: the whole fixture", () => {
  it("scan JSON report (golden)", async () => {
    const r = await runCli(["scan", "testdata/estate", ...stateArgs(STATES.map((s) => path.join("testdata/estate", s))), "--format", "json", "--quiet"]);
    expect(r.exitCode).toBe(0);
    expectGolden(path.join(ESTATE, "expected", "scan.json"), JSON.stringify(normalizeReport(r.stdout), null, 2) + "\n");
  });

  it("gives a zone split across roots one ruleset and import, in the root with its legacy WAF, with every root's skip rules", async () => {
    const { report } = await scanEstate();
    const zoneA = report.zones.filter((z) => z.zoneId === A);
    expect(zoneA.map((z) => z.root)).toEqual(["live/edge", "live/prod"]);
    const [edge, prod] = zoneA as [(typeof zoneA)[0], (typeof zoneA)[0]];
    expect(edge.imports).toEqual([]);
    expect(edge.ruleset.rules).toEqual([]);
    expect(edge.rulesetIn).toEqual({ root: "live/prod", workspace: "default" });
    expect(prod.imports).toHaveLength(1);
    const skips = prod.ruleset.rules.filter((r) => r.action === "skip").map((r) => r.description);
    expect(skips.some((d) => d.includes("cloudflare_page_rule.status"))).toBe(true);
    expect(skips.some((d) => d.includes("cloudflare_firewall_rule.monitoring"))).toBe(true);
    const split = report.findings.filter((f) => f.code === "ZONE_SPLIT_ACROSS_ROOTS");
    expect(split).toHaveLength(1);
    expect(split[0]).toMatchObject({ severity: "warning", zoneId: A, root: "live/prod", workspace: "default" });
    expect(split[0]!.message).toContain("live/edge, live/prod");
    // The ruleset id is asked for once: where the import is.
    expect(report.findings.filter((f) => f.code === "RULESET_ID_UNKNOWN" && f.zoneId === A).map((f) => f.root)).toEqual(["live/prod"]);
  });

  it("--ruleset-root moves a split zone's ruleset to the named root", async () => {
    const { report } = await json(["scan", ".", ...stateArgs(STATES), "--ruleset-root", `${A}=live/edge`]);
    const zoneA = report.zones.filter((z) => z.zoneId === A);
    expect(zoneA.find((z) => z.root === "live/edge")!.imports).toHaveLength(1);
    expect(zoneA.find((z) => z.root === "live/prod")!.rulesetIn).toEqual({ root: "live/edge", workspace: "default" });
    // Any spelling of the same root names it (the one path convention): ./live//edge/ is live/edge.
    const spelled = await json(["scan", ".", ...stateArgs(STATES), "--ruleset-root", `${A}=./live//edge/`]);
    expect(spelled.report.zones).toEqual(report.zones);
  });

  it("lists the already-migrated root and the root without Cloudflare as instances with no zone to migrate", async () => {
    const { report } = await scanEstate();
    const paths = report.roots!.map((r) => `${r.path}:${r.workspace}`);
    expect(paths).toEqual(["live/dns:default", "live/edge:default", "live/migrated:default", "live/prod:default", "live/staging:eu", "live/staging:us", "modules/legacy-waf/examples/basic:default"]);
    expect(report.zones.some((z) => z.root === "live/migrated" || z.root === "live/dns")).toBe(false);
    expect(report.resources.filter((r) => r.root === "live/migrated").map((r) => r.type)).toEqual(["cloudflare_ruleset"]);
    expect(report.roots!.find((r) => r.path === "live/migrated")!.migratedZones).toEqual(["3d4e5f60718293a4b5c6d7e8f9011223"]);
    // The example root calls ../../: its own instance, configuration only.
    expect(report.zones.filter((z) => z.root === "modules/legacy-waf/examples/basic").map((z) => z.zoneId)).toEqual(["4e5f60718293a4b5c6d7e8f901122334"]);
  });

  it("gate: text names each instance; SARIF and JUnit point at each root's own files and keep instances apart", async () => {
    const out = tempDir("cfwm-estate-gate-");
    const sarifFile = path.join(out, "gate.sarif");
    const junitFile = path.join(out, "gate.xml");
    const r = await runCli(["gate", ".", ...stateArgs(STATES), "--format", "text", "--format", `sarif=${sarifFile}`, "--format", `junit=${junitFile}`, "--quiet"], { cwd: ESTATE });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("live/staging (workspace eu): provider upgrade blocked");
    expect(r.stdout).toContain("live/prod: the provider stays on the legacy schema");
    expect(r.stdout).toContain(`Zone ${B} in live/staging (workspace eu)`);
    // The estate summary comes first: one line per zone entry, worst first.
    const summary = r.stdout.indexOf("Estate summary: 7 root/workspace instances, 6 zone entries");
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(r.stdout.indexOf("\nZone "));
    // The gate fails on the provider upgrade, but that does not stop the zone's migration: it is the way out.
    expect(r.stdout).toContain(`NEEDS ID     ${B} in live/staging (workspace eu): ready once its ruleset id is known`);
    expect(r.stdout).not.toMatch(/BLOCKED .*PROVIDER_UPGRADE_BLOCKED/);
    expect(r.stdout).toContain(`SPLIT        ${A} in live/edge: its skip rules join the zone's ruleset in live/prod`);
    expect(r.stdout).toContain(`MIGRATED     3d4e5f60718293a4b5c6d7e8f9011223 in live/migrated: already migrated`);
    expect(r.stdout).toContain(`NEEDS ID     ${A} in live/prod: ready once its ruleset id is known`);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(/^GATE FAILED: 2 findings/);

    const sarif = JSON.parse(readFileSync(sarifFile, "utf8"));
    expect(makeSarifValidator()(sarif)).toBe(true);
    const results = sarif.runs[0].results as { ruleId: string; locations?: { physicalLocation: { artifactLocation: { uri: string } } }[]; partialFingerprints: Record<string, string>; properties: { root?: string; workspace?: string } }[];
    const blocked = results.filter((x) => x.ruleId === "PROVIDER_UPGRADE_BLOCKED");
    expect(blocked.map((x) => x.locations![0]!.physicalLocation.artifactLocation.uri)).toEqual(["live/staging/versions.tf", "live/staging/versions.tf"]);
    expect(blocked.map((x) => x.properties.workspace)).toEqual(["eu", "us"]);
    // One legacy address in four instances: four results with four fingerprints.
    const owasp = results.filter((x) => x.ruleId === "LEGACY_WAF_RESOURCE" && (x as { properties: { address?: string } }).properties.address === "module.waf.cloudflare_waf_package.owasp");
    expect(owasp).toHaveLength(4);
    expect(new Set(owasp.map((x) => Object.values(x.partialFingerprints)[0])).size).toBe(4);

    const junit = readFileSync(junitFile, "utf8");
    expect(junit).toContain(`name="zone ${C} in live/staging (workspace us)"`);
    expect(junit).toContain('<property name="root" value="live/staging"/>');
  });

  it("markdown names the instance of every zone and stays within its budget", async () => {
    const r = await runCli(["scan", ".", ...stateArgs(STATES), "--format", "markdown", "--quiet"], { cwd: ESTATE });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`### Zone \`${A}\` in \`live/edge\``);
    expect(r.stdout).toContain(`Planned in \`live/prod\`, with this root's skip rules.`);
    const summary = r.stdout.indexOf("### Estate summary (7 root/workspace instances, 6 zone entries)");
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(r.stdout.indexOf("### Zone "));
    expect(r.stdout).toContain("- **MIGRATED** `3d4e5f60718293a4b5c6d7e8f9011223` in `live/migrated`: already migrated");
    expect(r.stdout.length).toBeLessThan(60_000);
  });
});

describe("estate: plan", () => {
  it("plans every instance in the report, each step and finding carrying its root and workspace", async () => {
    const { report, exitCode } = await json(["plan", ".", ...stateArgs(STATES)]);
    expect(exitCode).toBe(0);
    const steps = report.plan!.steps;
    const instancesWithSteps = new Set(steps.map((s) => `${s.root}:${s.workspace}`));
    expect(instancesWithSteps).toContain("live/staging:eu");
    expect(instancesWithSteps).toContain("live/staging:us");
    for (const f of report.findings as Finding[]) expect(f.root).toBeDefined();
    const rm = (root: string, ws: string) => steps.filter((s) => s.root === root && s.workspace === ws).flatMap((s) => s.commands).filter((c) => c.includes("state rm")).join("\n");
    expect(rm("live/staging", "us")).toContain("cfda825dfda411ea218cb70e6c88e82e");
    expect(rm("live/staging", "us")).not.toContain("de677e5818985db1285d0e80225f06e5");
  });

  it("refuses --format shell over several instances before writing anything, pointing at --out-dir", async () => {
    const r = await runCli(["plan", ".", ...stateArgs(STATES), "--quiet", "--format", "shell"], { cwd: ESTATE });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("use --out-dir DIR, which writes one complete migration per root and workspace");
    expect(r.stdout).toBe("");
  });

  it("--out-dir writes nothing at all when one of the migrations' files already exists", async () => {
    const out = tempDir("cfwm-estate-plan-");
    mkdirSync(path.join(out, "live/staging/us"), { recursive: true });
    writeFileSync(path.join(out, "live/staging/us/PLAN.md"), "mine\n");
    const r = await runCli(["plan", ".", ...stateArgs(STATES), "--quiet", "--out-dir", out], { cwd: ESTATE });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("live/staging/us/PLAN.md");
    expect(readdirSync(out)).toEqual(["live"]);
    expect(existsSync(path.join(out, "live/prod"))).toBe(false);
    expect(readFileSync(path.join(out, "live/staging/us/PLAN.md"), "utf8")).toBe("mine\n");
  });
});

describe("estate: apply", () => {
  // A second root in a directory below the one apply migrates: the edge team's Page Rules for its zone.
  async function withTeamEdge() {
    const work = await prepareWork();
    mkdirSync(path.join(work.dir, "team-edge"));
    writeFileSync(path.join(work.dir, "team-edge", "main.tf"), 'resource "cloudflare_page_rule" "status" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n  target  = "shop.example.com/status*"\n  actions {\n    disable_security = true\n  }\n}\n');
    return work;
  }

  it("reads the root as terraform does: a root below it is another root, whose Page Rule for the zone is refused before any change", async () => {
    const work = await withTeamEdge();
    const before = snapshot(work.dir);
    const r = await runCli(["apply", ...IDS, "--yes", "--format", "json"], { cwd: work.dir, env: envFor(work) });
    expect(r.exitCode).toBe(2);
    const message = JSON.parse(r.stdout).error.message as string;
    // Not merged into this root (one root's migration over both): found as another root's rule, as any other.
    expect(message).not.toContain("the paths read hold");
    expect(message).toContain("team-edge/main.tf:1: cloudflare_page_rule.status in root team-edge disables security (disable_security = true) for zone 0da42c8d2132a9ddaf714f9e7c920711, which this root migrates");
    expect(calls(work).map((c) => c[0])).toEqual(["version", "state"]);
    expect(snapshot(work.dir)).toEqual(before);
  });

  it("a root below it that does nothing to the WAF of its zones: the migration runs, and that root's files are untouched", async () => {
    const work = await prepareWork();
    mkdirSync(path.join(work.dir, "team-cache"));
    const cache = 'resource "cloudflare_page_rule" "assets" {\n  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"\n  target  = "shop.example.com/assets/*"\n  actions {\n    cache_level = "cache_everything"\n  }\n}\n';
    writeFileSync(path.join(work.dir, "team-cache", "main.tf"), cache);
    const r = await runCli(["apply", ...IDS, "--yes", "--format", "json"], { cwd: work.dir, env: envFor(work) });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(calls(work).map((c) => c[0])).toContain("import");
    expect(readFileSync(path.join(work.dir, "team-cache", "main.tf"), "utf8")).toBe(cache);
  });

  it("refuses to run over several roots given as paths before any change, asking for one root", async () => {
    const work = await withTeamEdge();
    const before = snapshot(work.dir);
    const r = await runCli(["apply", ".", "team-edge", "--chdir", ".", ...IDS, "--yes", "--format", "json"], { cwd: work.dir, env: envFor(work) });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout).error.message).toContain("apply migrates one root module, and the paths read hold 2: ., team-edge");
    expect(calls(work).map((c) => c[0])).toEqual(["version", "state"]);
    expect(snapshot(work.dir)).toEqual(before);
  });
});
