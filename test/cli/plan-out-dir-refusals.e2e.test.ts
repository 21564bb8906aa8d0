// `plan --out-dir` that ends with exit 2 writes no artifact. Before, a tree with a file that could not be
// parsed (its legacy block then missing from legacy-removal.patch and migrate.sh), an unreadable
// --config-json, or a --format plan does not have still wrote PLAN.md, ruleset.tf, migrate.sh, the patch and
// report.json, and only then failed: a half-true migration left on disk next to an error.
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";
import { tempDir } from "../support/workdir.js";

const COUNT = path.join(TESTDATA, "realworld-staging-count");
const ZONE = "3f1bc18efe333337886cd2d0f6fa0000";

/** The fixture with one more legacy block in a file that does not parse (an edit left half done). */
function brokenTree(): string {
  const dir = tempDir("cfwm-refuse-");
  cpSync(COUNT, dir, { recursive: true });
  writeFileSync(path.join(dir, "xss.tf"), `resource "cloudflare_waf_rule" "xss" {\n  zone_id = "${ZONE}"\n  rule_id = "100000357"\n  mode    =\n}\n`);
  return dir;
}

const written = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }) : []);

describe("plan --out-dir writes nothing when the run exits 2", () => {
  it("a file that cannot be parsed: the report and the error are printed, no artifact is written", async () => {
    const tree = brokenTree();
    const out = path.join(tempDir(), "migration");
    const r = await runCli(["plan", tree, "--state", path.join(tree, "terraform.tfstate"), "--var", "environment=staging", "--out-dir", out, "--format", "json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/error: .*xss\.tf:4:\d+: /);
    expect(r.stderr).toContain(`--out-dir: nothing was written to ${out}: 1 input error (above) makes the plan incomplete`);
    expect(r.stderr).not.toContain("wrote");
    expect(written(out)).toEqual([]);
    // The report still lists everything that could be read.
    const report = JSON.parse(r.stdout) as { errors: unknown[]; zones: { zoneId: string }[] };
    expect(report.errors).toHaveLength(1);
    expect(report.zones.map((z) => z.zoneId)).toEqual([ZONE]);
  });

  it("--format shell prints no migrate.sh for that tree either", async () => {
    const tree = brokenTree();
    const r = await runCli(["plan", tree, "--state", path.join(tree, "terraform.tfstate"), "--var", "environment=staging", "--format", "shell"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("--format shell: no migrate.sh is printed and nothing is written: 1 input error (above) makes the plan incomplete");
  });

  // The refusal came from inside the shell renderer: a report file named before it (--format json=FILE) was
  // already written, one named after it was not, and the --out-dir notice never came.
  it.each([
    ["a report file named before it", ["--format", "json=REPORT", "--format", "shell"]],
    ["a report file named after it", ["--format", "shell", "--format", "text=REPORT"]],
    ["--out-dir with it", ["--format", "shell", "--format", "markdown=REPORT", "--out-dir", "OUT"]],
  ])("--format shell over that tree is refused before any output: %s", async (_what, formats) => {
    const tree = brokenTree();
    const dir = tempDir();
    const report = path.join(dir, "report.out");
    const out = path.join(dir, "migration");
    const r = await runCli(["plan", tree, "--state", path.join(tree, "terraform.tfstate"), "--var", "environment=staging", ...formats.map((a) => a.replace("REPORT", report).replace("OUT", out))]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^cf-waf-migrate: error: .*xss\.tf:4:\d+: .*\ncf-waf-migrate: --format shell: no migrate\.sh is printed and nothing is written: 1 input error \(above\) makes the plan incomplete; fix it and run plan again\n?$/);
    expect(existsSync(report)).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it("an unreadable --config-json: no artifact", async () => {
    const out = path.join(tempDir(), "migration");
    const r = await runCli(["plan", COUNT, "--var", "environment=staging", "--config-json", `${ZONE}=${path.join(tempDir(), "missing.json")}`, "--out-dir", out, "--format", "json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("missing.json: cannot read");
    expect(written(out)).toEqual([]);
  });

  it("a --format plan does not have is refused before --out-dir is written", async () => {
    const out = path.join(tempDir(), "migration");
    const r = await runCli(["plan", COUNT, "--var", "environment=staging", "--out-dir", out, "--format", "sarif"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--format sarif: not one of");
    expect(written(out)).toEqual([]);
  });

  it("an estate with one broken file in one root: no root's migration is written, not even ESTATE.md", async () => {
    const top = tempDir("cfwm-refuse-estate-");
    cpSync(path.join(TESTDATA, "estate"), top, { recursive: true });
    writeFileSync(path.join(top, "live", "prod", "broken.tf"), 'resource "cloudflare_waf_rule" "late" {\n  zone_id = \n}\n');
    const out = path.join(tempDir(), "estate-plan");
    const r = await runCli(["plan", ".", ...ESTATE_STATES.flatMap((s) => ["--state", s]), "--quiet", "--out-dir", out, "--format", "json"], { cwd: top });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/error: live\/prod\/broken\.tf:2:\d+: /);
    expect(r.stderr).toContain("--out-dir: nothing was written");
    expect(written(out)).toEqual([]);
  });

  it("the same trees without the error write the whole set (exit 0)", async () => {
    const out = path.join(tempDir(), "migration");
    const r = await runCli(["plan", COUNT, "--var", "environment=staging", "--out-dir", out, "--format", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["PLAN.md", "legacy-removal.patch", "migrate.sh", "report.json", "ruleset.tf"]);
  });
});

describe("plan --out-dir DIR --output FILE: a report file that cannot be written is refused before DIR", () => {
  // Before, DIR was written, then writing FILE failed ("internal error", exit 2) with the artifacts on disk.
  it("FILE under a regular file, FILE a directory, FILE one of DIR's own files: nothing is created, not even DIR", async () => {
    const base = tempDir("cfwm-refuse-output-");
    writeFileSync(path.join(base, "notes.txt"), "a file, not a directory\n");
    mkdirSync(path.join(base, "reports"));
    const out = path.join(base, "migration");
    const cases: [string, string][] = [
      [path.join(base, "notes.txt", "plan.json"), "is not a directory"],
      [path.join(base, "reports"), "is a directory, not a file"],
      [path.join(out, "report.json"), "--out-dir writes that file too"],
    ];
    for (const [file, message] of cases) {
      const r = await runCli(["plan", COUNT, "--var", "environment=staging", "--out-dir", out, "--format", "json", "--output", file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`--output ${file}: `);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain("internal error");
      expect(r.stderr).not.toContain("wrote");
      expect(existsSync(out)).toBe(false);
    }
    expect(readdirSync(path.join(base, "reports"))).toEqual([]);
  });

  it("DIR that is a file, or under one, is refused in one line (not an internal error)", async () => {
    const base = tempDir("cfwm-refuse-output-");
    writeFileSync(path.join(base, "notes.txt"), "a file\n");
    for (const dir of [path.join(base, "notes.txt"), path.join(base, "notes.txt", "migration")]) {
      const r = await runCli(["plan", COUNT, "--var", "environment=staging", "--out-dir", dir, "--format", "json", "--output", path.join(base, "plan.json")]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`--out-dir ${dir}: ${path.join(base, "notes.txt")} is not a directory. Nothing was written`);
      expect(r.stderr).not.toContain("internal error");
      expect(existsSync(path.join(base, "plan.json"))).toBe(false);
    }
  });

  it("--format html=FILE is checked the same way", async () => {
    const base = tempDir("cfwm-refuse-output-");
    mkdirSync(path.join(base, "reports"));
    const out = path.join(base, "migration");
    const r = await runCli(["plan", COUNT, "--var", "environment=staging", "--out-dir", out, "--format", "json", "--format", `html=${path.join(base, "reports")}`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--format html=${path.join(base, "reports")}: is a directory`);
    expect(existsSync(out)).toBe(false);
  });

  it("DIR with an existing artifact is refused with nothing written, and a FILE that can be written is written with DIR", async () => {
    const base = tempDir("cfwm-refuse-output-");
    const out = path.join(base, "migration");
    mkdirSync(out);
    writeFileSync(path.join(out, "PLAN.md"), "kept\n");
    const refused = await runCli(["plan", COUNT, "--var", "environment=staging", "--out-dir", out, "--format", "json", "--output", path.join(base, "plan.json")]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("already has PLAN.md: nothing was written");
    expect(readdirSync(out)).toEqual(["PLAN.md"]);
    const ok = await runCli(["plan", COUNT, "--var", "environment=staging", "--out-dir", path.join(base, "fresh"), "--format", "json", "--output", path.join(base, "new", "plan.json")]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(existsSync(path.join(base, "new", "plan.json"))).toBe(true);
    expect(readdirSync(path.join(base, "fresh"))).toContain("PLAN.md");
  });
});
