// The workspace pipeline (discover, parse, modules, state) never crashes on mutated fixture trees, and the
// built CLI ends such runs with exit 2, the errors in the report, and no stack trace.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { checkProperty, generators, properties } from "../support/generators.js";
import { tempDir } from "../support/workdir.js";

describe("workspace pipeline under mutation", () => {
  it("loadWorkspace never throws; every error names its file, with a line for configuration files", async () => {
    const stats = await checkProperty(properties.workspacePipeline, { numRuns: 12, seed: 41 });
    expect([...stats.keys()].some((k) => k.startsWith("errors reported"))).toBe(true);
  });
});

/** A copy of testdata/multi-zone with some files broken by the fuzz mutations. */
function brokenTree(edits: Record<string, (text: string) => string>): string {
  const dir = tempDir("cfwm-broken-");
  cpSync(path.join(TESTDATA, "multi-zone"), dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) writeFileSync(path.join(dir, file), edit(readFileSync(path.join(dir, file), "utf8")));
  return dir;
}

const { applyMutation } = generators;

const CASES: [string, Record<string, (t: string) => string>][] = [
  ["a truncated file and a stray brace", { "firewall.tf": (t) => applyMutation(t, { kind: "truncate", at: 0.5 }), "main.tf": (t) => applyMutation(t, { kind: "flip", at: 0.3, char: "{" }) }],
  ["stray unicode and a NUL", { "main.tf": (t) => applyMutation(applyMutation(t, { kind: "insert", at: 0.2, text: "\uFEFF\u200B" }), { kind: "insert", at: 0.6, text: "\u0000" }) }],
  ["a truncated state and deeply nested JSON config", { "terraform.tfstate": (t) => t.slice(0, t.length / 3), "waf-rules.tf.json": (t) => t.replace('"100015"', `${"[".repeat(8000)}1${"]".repeat(8000)}`) }],
];

describe("the built CLI on broken trees", () => {
  for (const [name, edits] of CASES) {
    it(`scan: ${name}: exit 2, errors with file and line, no stack trace`, async () => {
      const dir = brokenTree(edits);
      const r = await runCli(["scan", ".", "--state", "terraform.tfstate", "--format", "json"], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toContain("internal error");
      const report = JSON.parse(r.stdout) as { errors: { file: string; line: number | null }[]; resources: unknown[] };
      expect(report.errors.length).toBeGreaterThan(0);
      for (const e of report.errors) {
        expect(e.file).toBeTruthy();
        if (/\.tf(\.json)?$/.test(e.file) || /not valid JSON|truncated/.test(JSON.stringify(e))) expect(e.line, JSON.stringify(e)).toBeGreaterThanOrEqual(1);
      }
      // The report still lists what could be read.
      expect(report.resources.length).toBeGreaterThan(0);
    });
  }

  it("gate and plan on a broken tree: exit 2 and no stack trace", async () => {
    const dir = brokenTree(CASES[0]![1]);
    for (const args of [["gate", "."], ["plan", ".", "--out-dir", path.join(dir, "out")]]) {
      const r = await runCli([...args, "--format", "json"], { cwd: dir });
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toContain("internal error");
    }
  });
});
