// Plan on states with many instances (issue 18 §4), without a clock: the bench (`npm run bench`, rows
// "state 20k instances …") measures time; this holds the structure that keeps plan linear. Every zone's
// ruleset is laid out without the WASM formatter (one call per zone was most of a plan over thousands of
// zones), and the plan covers every instance and every zone.
import { writeFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

const formatCalls = vi.hoisted(() => ({ n: 0 }));
vi.mock("@cdktn/hcl-tools", async (importOriginal) => {
  const real = await importOriginal<typeof import("@cdktn/hcl-tools")>();
  return {
    ...real,
    format: (text: string) => {
      formatCalls.n++;
      return real.format(text);
    },
  };
});

import { manyInstancesCorpus } from "../../scripts/bench/generate.mjs";
import { analyze } from "../../src/core/analyze.js";
import { assemblePlan } from "../../src/plan/artifacts.js";
import { collectProviderInfo, rulesetSyntaxMajor } from "../../src/terraform/versions/providers.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { tempDir } from "../support/workdir.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function planOf(shape: "one" | "dup" | "zones", instances: number) {
  const dir = tempDir(`cfwm-many-${shape}-`);
  dirs.push(dir);
  const { files, state } = manyInstancesCorpus({ seed: 7, instances, shape });
  for (const [rel, text] of files as Map<string, string>) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  writeFileSync(path.join(dir, "terraform.tfstate"), JSON.stringify(state, null, 2));
  const ws = await loadWorkspace({ paths: [dir], statePaths: [path.join(dir, "terraform.tfstate")], cwd: dir, readStdin: async () => Buffer.alloc(0) });
  const providerInfo = await collectProviderInfo(ws.tree, ws.base);
  const providerMajor = rulesetSyntaxMajor(providerInfo);
  const analysis = analyze(ws.domain, { providerMajor, stateKnown: ws.stateKnown, unfollowedModulePrefixes: [] });
  formatCalls.n = 0;
  const plan = await assemblePlan({ ws, analysis, providerMajor, extracted: [], fromCfTerraforming: null, outDir: null, providerInfo });
  return { plan, analysis, state, formatCalls: formatCalls.n };
}

const instancesIn = (state: { resources: { instances: unknown[] }[] }) => state.resources.reduce((n, r) => n + r.instances.length, 0);

describe("plan with many instances", () => {
  it("one resource with 2,000 instances: every instance is removed from state, the ruleset needs no formatter call", async () => {
    const { plan, analysis, state, formatCalls } = await planOf("one", 2000);
    expect(analysis.zones).toHaveLength(1);
    expect(plan.stateRemovals).toHaveLength(instancesIn(state));
    // One TODO per unmapped rule override, all in the one ruleset.
    expect(plan.rulesetTf.match(/^# TODO: MANAGED_OVERRIDE_UNMAPPED: /gm)).toHaveLength(2000);
    expect(formatCalls).toBe(0);
  });

  it("the same resources in one module instance per zone: one ruleset per zone, no formatter call per zone", async () => {
    const { plan, analysis, state, formatCalls } = await planOf("dup", 2000);
    const zones = state.resources.length / 3;
    expect(analysis.zones).toHaveLength(zones);
    expect(plan.rulesetTf.match(/^resource "cloudflare_ruleset" /gm)).toHaveLength(zones);
    expect(plan.stateRemovals).toHaveLength(instancesIn(state));
    expect(formatCalls).toBe(0);
  });

  it("one resource whose instances span many zones: each zone's TODOs land in its own ruleset", async () => {
    const { plan, analysis, formatCalls } = await planOf("zones", 1000);
    expect(analysis.zones.length).toBeGreaterThan(50);
    expect(plan.rulesetTf.match(/^resource "cloudflare_ruleset" /gm)).toHaveLength(analysis.zones.length);
    expect(plan.rulesetTf.match(/^# TODO: MANAGED_OVERRIDE_UNMAPPED: /gm)).toHaveLength(1000);
    expect(formatCalls).toBe(0);
  });
});
