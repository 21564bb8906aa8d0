// The package as a user gets it: `npm pack`, installed into an empty directory, then the binary run
// through `npx` and the library imported from a TypeScript file that type-checks under `nodenext`.
//
// No network here, and the npm cache does not hold the dependencies, so `npm install <tarball>` cannot
// resolve them. The test therefore does by hand what npm's install of a tarball does, offline:
//   1. `npm pack --ignore-scripts` (dist/ is already built by `pretest`; not rebuilding keeps the other
//      test files, which run the same dist/ concurrently, safe from a half-written build);
//   2. unpack the tarball into <tmp>/node_modules/cf-waf-migrate and link its `bin` into node_modules/.bin;
//   3. link ONLY the packed package.json's `dependencies` from this checkout's node_modules into
//      <tmp>/node_modules (their own dependencies resolve from where the links point). A module the code
//      imports but `dependencies` does not list is therefore missing here, as it would be for a user;
//   4. link @types/node and typescript, which the consumer project would have for its own type-check.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TIMEOUT = 300_000; // pack + tsc on a busy shared machine; a bound, not a speed check

let tmp: string;
let project: string;
let tarball: string;

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_offline: "true", NO_COLOR: "1" }, maxBuffer: 64 << 20 });
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "cfwm-pack-"));
  const out = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], repo);
  const info = JSON.parse(out.slice(out.indexOf("["))) as { filename: string }[];
  tarball = path.join(tmp, info[0]!.filename);

  project = path.join(tmp, "consumer");
  const pkgDir = path.join(project, "node_modules", "cf-waf-migrate");
  mkdirSync(pkgDir, { recursive: true });
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  run("tar", ["xzf", tarball, "-C", pkgDir, "--strip-components=1"], project);

  const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { bin: Record<string, string>; dependencies: Record<string, string> };
  const bin = path.join(project, "node_modules", ".bin");
  mkdirSync(bin);
  for (const [name, file] of Object.entries(pkg.bin)) symlinkSync(path.join("..", "cf-waf-migrate", file), path.join(bin, name));
  for (const dep of [...Object.keys(pkg.dependencies), "@types/node", "typescript"]) {
    const target = path.join(project, "node_modules", dep);
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(path.join(repo, "node_modules", dep), target, "dir");
  }
}, TIMEOUT);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("contains the LICENSE package.json names, and every source map's sources (shipped or embedded)", () => {
    const files = run("tar", ["tzf", tarball], tmp).split("\n").filter(Boolean);
    expect(files).toContain("package/LICENSE");
    expect(readFileSync(path.join(project, "node_modules/cf-waf-migrate/LICENSE"), "utf8")).toMatch(/^MIT License/);
    const pkgDir = path.join(project, "node_modules", "cf-waf-migrate");
    const maps = files.filter((f) => f.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    for (const m of maps) {
      const map = JSON.parse(readFileSync(path.join(pkgDir, m.replace(/^package\//, "")), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      // Each source is either shipped (src/) or, for a dependency bundled into the CLI, embedded in the map.
      map.sources.forEach((s, i) => {
        const usable = existsSync(path.resolve(path.dirname(path.join(pkgDir, m.replace(/^package\//, ""))), s)) || typeof map.sourcesContent?.[i] === "string";
        expect(usable, `${m} -> ${s}`).toBe(true);
      });
    }
  });

  it(
    "runs its binary through npx",
    () => {
      const fixture = path.join(repo, "testdata", "multi-zone");
      const out = run("npx", ["--no", "cf-waf-migrate", "scan", fixture, "--state", path.join(fixture, "terraform.tfstate"), "--format", "json"], project);
      const report = JSON.parse(out) as { schemaVersion: number; zones: unknown[]; findings: { code: string }[] };
      expect(report.schemaVersion).toBe(1);
      expect(report.zones.length).toBeGreaterThan(0);
      expect(report.findings.map((f) => f.code)).toContain("LEGACY_WAF_RESOURCE");
    },
    TIMEOUT,
  );

  it(
    "is a library a TypeScript file imports under nodenext, and that runs",
    () => {
      const fixture = path.join(repo, "testdata", "multi-zone");
      writeFileSync(
        path.join(project, "check.ts"),
        `import { analyze, buildReport, gateEstate, gateTextTail, loadEstate, loadWorkspace, planEstate, renderMarkdown, renderSarif, scanEstate, type EstatePlan, type GateResult, type Report, type Finding } from "cf-waf-migrate";
import { FINDING_CODES, tripsFailOn } from "cf-waf-migrate/core";
import { readFile } from "node:fs/promises";

const ws = await loadWorkspace({ paths: [${JSON.stringify(fixture)}], statePaths: [${JSON.stringify(path.join(fixture, "terraform.tfstate"))}], cwd: process.cwd(), readStdin: () => readFile("/dev/null") });
const report: Report = buildReport({ version: "0", resources: ws.resources, analysis: analyze(ws.domain, { stateKnown: ws.stateKnown }), errors: ws.errors });
const blocking: Finding[] = report.findings.filter((f) => tripsFailOn(f.severity, "warning"));
const known: boolean = report.findings.every((f) => f.code in FINDING_CODES);
// What \`gate\` and \`plan\` compute over an estate (every root and workspace under the paths), without the CLI.
const estate = await loadEstate({ paths: [${JSON.stringify(fixture)}], statePaths: [${JSON.stringify(path.join(fixture, "terraform.tfstate"))}], cwd: process.cwd(), readStdin: () => readFile("/dev/null") });
const gated: GateResult = await gateEstate(estate, { version: "0", root: "multi-zone", target: "4.52.0" });
const planned: EstatePlan = await planEstate(estate, { cwd: process.cwd(), version: "0", root: "multi-zone", errors: estate.errors });
const tail: string = gateTextTail(gated.report, "error", gated.summaries);
// What \`scan\` reports, the estate read one instance at a time: the same zones as the estate's report.
const scanned = await scanEstate({ paths: [${JSON.stringify(fixture)}], statePaths: [${JSON.stringify(path.join(fixture, "terraform.tfstate"))}], cwd: process.cwd(), readStdin: () => readFile("/dev/null"), analyze: {}, version: "0" });
console.log(JSON.stringify({ zones: report.zones.length, blocking: blocking.length, known, md: renderMarkdown(report).startsWith("## "), sarif: JSON.parse(renderSarif(report)).version,
  gateFails: gated.report.findings.some((f) => f.code === "PROVIDER_UPGRADE_BLOCKED") && tail.includes("GATE FAILED"), steps: [...new Set(planned.instances[0]!.plan.steps.map((s) => s.number).filter((n) => n >= 1))].length,
  scanned: scanned.report.zones.length === gated.report.zones.length && scanned.allRootPaths.length === 1 }));
`,
      );
      const tsc = path.join(project, "node_modules", "typescript", "bin", "tsc");
      // Throws (with tsc's diagnostics) when the import does not resolve (TS2307) or the types are wrong, and
      // then emits nothing; else the same file runs under Node (type stripping is not in Node 20: it is
      // compiled to a sibling .js). One tsc run for both: each costs ~6 s of CPU.
      run(process.execPath, [tsc, "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--strict", "--types", "node", "--noEmitOnError", "--outDir", "out", "check.ts"], project);
      const result = JSON.parse(run(process.execPath, [path.join("out", "check.js")], project)) as Record<string, unknown>;
      expect(result).toEqual({ zones: expect.any(Number), blocking: expect.any(Number), known: true, md: true, sarif: "2.1.0", gateFails: true, steps: 7, scanned: true });
      expect(result.zones).toBeGreaterThan(0);
      expect(result.blocking).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it("exports no file that is not in the tarball", () => {
    const pkgDir = path.join(project, "node_modules", "cf-waf-migrate");
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { main: string; types: string; exports: Record<string, unknown> };
    const values = (v: unknown): string[] => (typeof v === "string" ? [v] : Object.values(v as object).flatMap(values));
    const targets = [pkg.main, pkg.types, ...values(pkg.exports)];
    expect(targets).toContain("./dist/index.d.ts");
    for (const t of targets) expect(existsSync(path.join(pkgDir, t)), t).toBe(true);
    expect(readdirSync(path.join(pkgDir, "src")).length).toBeGreaterThan(0);
  });
});
