// End-to-end: LEGACY_REFERENCE through the built CLI. `plan` lists the references in the report and in
// step 6; the generated migrate.sh and `apply` refuse before any change while one remains; once they are
// edited, the same tree migrates and leaves no dangling reference.
import { execa } from "execa";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { undeclaredReferences } from "../../src/core/references/closure.js";
import { readReferenceGraph } from "../../src/terraform/references/graph.js";
import { isLegacyBlock } from "../../src/terraform/references/removal-set.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { runCli } from "../support/cli.js";
import { copyFixture, fakeTerraformBin, tempDir } from "../support/workdir.js";

const ZONE = "3f1bc18efe333337886cd2d0f6fa0000";
const IDS = ["--ruleset-id", `${ZONE}=0123456789abcdef0123456789abcdef`];

function env(bin: string, log: string): Record<string, string> {
  return { PATH: `${bin}${path.delimiter}${process.env.PATH}`, FAKE_TF_LOG: log };
}

const calls = (log: string): string[][] => {
  try {
    return readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as string[]);
  } catch {
    return [];
  }
};

async function planInto(dir: string) {
  const out = tempDir();
  const r = await runCli(["plan", ".", "--state", "terraform.tfstate", ...IDS, "--out-dir", out, "--format", "json"], { cwd: dir });
  expect(r.exitCode).toBe(0);
  return { out, report: JSON.parse(r.stdout) as { findings: { code: string; file: string; line: number; details?: Record<string, unknown> }[]; plan: { steps: { number: number; notes: string[] }[] } } };
}

describe("LEGACY_REFERENCE end to end", () => {
  it("plan lists the references; migrate.sh and apply refuse before any change", async () => {
    const dir = copyFixture("refs-dangling");
    const { out, report } = await planInto(dir);
    const refs = report.findings.filter((f) => f.code === "LEGACY_REFERENCE");
    expect(refs.map((f) => `${f.file}:${f.line} ${String(f.details?.referenced)}`)).toEqual([
      "main.tf:7 cloudflare_waf_package.owasp",
      "main.tf:31 cloudflare_waf_rule.sqli",
      "main.tf:39 local.package_id",
    ]);
    const step6 = report.plan.steps.find((s) => s.number === 6)!;
    expect(step6.notes.filter((n) => n.startsWith("LEGACY_REFERENCE"))).toHaveLength(3);
    expect(step6.notes).toContain('also removed, since its only job is to expose a legacy block: main.tf:42: output "package" (only exposes cloudflare_waf_package.owasp)');

    const before = { main: readFileSync(path.join(dir, "main.tf"), "utf8"), state: readFileSync(path.join(dir, "terraform.tfstate"), "utf8") };
    const bin = fakeTerraformBin();
    const log = path.join(tempDir(), "argv.log");
    const script = await execa("bash", [path.join(out, "migrate.sh"), "--yes"], { cwd: dir, env: env(bin, log), reject: false });
    expect(script.exitCode).toBe(1);
    expect(script.stderr).toContain("migrate.sh: refusing to start: 3 expression(s) refer to legacy WAF blocks");
    expect(script.stderr).toContain("main.tf:31: resource \"cloudflare_filter\" \"edge\" (argument depends_on) refers to cloudflare_waf_rule.sqli");
    expect(calls(log)).toEqual([]);

    writeFileSync(path.join(dir, "ruleset.tf"), readFileSync(path.join(out, "ruleset.tf")));
    const applied = await runCli(["apply", ...IDS, "--yes"], { cwd: dir, env: env(bin, log) });
    expect(applied.exitCode).not.toBe(0);
    expect(applied.stderr).toContain("apply refused, nothing was changed");
    expect(applied.stderr).toContain("main.tf:39: module \"edge\" (argument package_id) refers to local.package_id");
    // Only the read-only commands ran; state and files are as they were.
    expect(calls(log).map((c) => c.slice(0, 2).join(" "))).toEqual(["version -json", "state pull", "state list"]);
    expect(readFileSync(path.join(dir, "main.tf"), "utf8")).toBe(before.main);
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toBe(before.state);
  });

  it("once the references are edited, apply migrates and no reference dangles", async () => {
    const dir = copyFixture("refs-dangling");
    const main = path.join(dir, "main.tf");
    const fixed = readFileSync(main, "utf8")
      .replace('waf_summary = "${cloudflare_waf_package.owasp.id}/${local.zone_id}"', 'waf_summary = "${local.zone_id}"')
      .replace("\n  depends_on = [\n    cloudflare_waf_rule.sqli,\n  ]\n", "")
      .replace("package_id = local.package_id", 'package_id = "c504870194831cd12c3fc0284f294abb"');
    writeFileSync(main, fixed);
    const { out, report } = await planInto(dir);
    expect(report.findings.filter((f) => f.code === "LEGACY_REFERENCE")).toEqual([]);
    expect(readFileSync(path.join(out, "migrate.sh"), "utf8")).not.toContain("refusing to start");

    writeFileSync(path.join(dir, "ruleset.tf"), readFileSync(path.join(out, "ruleset.tf")));
    const bin = fakeTerraformBin();
    const log = path.join(tempDir(), "argv.log");
    const applied = await runCli(["apply", ...IDS, "--yes"], { cwd: dir, env: env(bin, log) });
    expect(applied.stderr).toBe("");
    expect(applied.exitCode).toBe(0);
    const after = readFileSync(main, "utf8");
    expect(after).not.toMatch(/cloudflare_waf_|output "package"|local\.package_id|package_id  = /);

    const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0) });
    const graph = await readReferenceGraph(ws, isLegacyBlock, { allDirs: true });
    expect(undeclaredReferences(graph.graphs)).toEqual([]);
  });

  it("keeps an output whose value exposes nothing legacy, and names its depends_on or precondition on a legacy block", async () => {
    const dir = copyFixture("refs-output-depends-on");
    const out = tempDir();
    const r = await runCli(["plan", ".", ...IDS, "--out-dir", out, "--format", "json"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: { code: string; file: string; line: number; details?: Record<string, unknown> }[]; plan: { steps: { number: number; notes: string[] }[] } };
    // Deleting output "zone_id" or "team" would take a value other stacks read out of the state: their
    // values do not come from the legacy block, only their ordering or check does.
    expect(report.findings.filter((f) => f.code === "LEGACY_REFERENCE").map((f) => `${f.file}:${f.line} ${String(f.details?.argument)} ${String(f.details?.referenced)}`)).toEqual([
      "main.tf:27 depends_on cloudflare_waf_package.owasp",
      "main.tf:34 precondition cloudflare_waf_package.owasp",
    ]);
    const notes = report.plan.steps.find((s) => s.number === 6)!.notes.filter((n) => n.startsWith("also removed"));
    expect(notes).toEqual(['also removed, since its only job is to expose a legacy block: main.tf:40: output "package" (only exposes cloudflare_waf_package.owasp)']);
    const patch = readFileSync(path.join(out, "legacy-removal.patch"), "utf8");
    expect(patch).toContain('-output "package" {');
    expect(patch).not.toContain('-output "zone_id" {');
    expect(patch).not.toContain('-output "team" {');
  });
});
