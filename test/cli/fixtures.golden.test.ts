// Every fixture tree's reports, pinned: scan JSON, plan JSON and the generated ruleset for provider 4 and 5.
// A change in any of them shows up as a golden diff to review (`UPDATE_GOLDEN=1 npm test` rewrites them).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "@cdktn/hcl2json";
import { describe, expect, it } from "vitest";
import { normalizeReport, runCli, TESTDATA } from "../support/cli.js";
import { expectGolden } from "../support/golden.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const FIXTURES: { name: string; states: string[]; paths?: string[]; severalRoots?: string }[] = [
  { name: "multi-zone", states: ["terraform.tfstate"] },
  // Two root modules (an estate): --out-dir holds one migration per root; the ruleset is legacy-waf's.
  { name: "split-stacks", states: ["legacy-waf/terraform.tfstate", "edge/show.json"], severalRoots: "legacy-waf" },
  { name: "provider-upgrade", states: [] },
  { name: "hand-migrated-bypass", states: [] },
  { name: "already-migrated", states: [] },
  // Settings from YAML (yamldecode(file())) and from a caller whose tfvars are missing (VALUE_UNRESOLVED, TODOs).
  { name: "values-yaml-zones", states: [] },
  { name: "values-tfvars/without-tfvars", states: [] },
];

describe.each(FIXTURES)("fixture $name", ({ name, states, severalRoots }) => {
  const dir = path.join(TESTDATA, name);
  // Run from the repository root, as `npm run example` does: the report's root is testdata/<name>.
  const stateArgs = states.flatMap((s) => ["--state", path.join("testdata", name, s)]);
  const target = path.join("testdata", name);
  const golden = (file: string) => path.join(dir, "expected", file);

  it("scan JSON report (golden)", async () => {
    const r = await runCli(["scan", target, ...stateArgs, "--format", "json"]);
    expect(r.exitCode).toBe(0);
    expectGolden(golden("scan.json"), JSON.stringify(normalizeReport(r.stdout), null, 2) + "\n");
  });

  it.each([4, 5])("plan: ruleset.tf for provider %d re-parses (golden)", async (major) => {
    const out = tempDir();
    // Only the generated ruleset is pinned here, not the report's paths: the plan runs on a copy outside the
    // repository, which it would otherwise read whole for other roots calling the fixture's modules.
    const copy = copyFixture(name);
    const r = await runCli(["plan", copy, ...states.flatMap((s) => ["--state", path.join(copy, s)]), "--provider-major", String(major), "--out-dir", out, "--format", "json"]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    if (report.zones.length === 0) return; // nothing to migrate: no ruleset to generate
    // Several roots: one migration each; the split zone's one ruleset is in the root with its legacy WAF.
    const ruleset = readFileSync(path.join(out, severalRoots ?? "", "ruleset.tf"), "utf8");
    await parse("ruleset.tf", ruleset);
    expectGolden(golden(`ruleset.v${major}.tf.golden`), ruleset);
    // A split zone's other roots have no import: theirs is where the ruleset is.
    for (const z of report.zones) for (const i of z.imports) expect(i.id.startsWith(major === 5 ? "zones/" : "zone/")).toBe(true);
    expect(report.zones.filter((z: { imports: unknown[] }) => z.imports.length === 1)).toHaveLength(new Set(report.zones.map((z: { zoneId: string }) => z.zoneId)).size);
  });
});
