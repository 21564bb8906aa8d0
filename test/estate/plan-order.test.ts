import { describe, expect, it } from "vitest";
import { instanceOutDir, renderEstateMarkdown, safeOrder, type PlannedInstance } from "../../src/estate/plan-order.js";
import { estateSummary } from "../../src/estate/summary.js";
import type { Report } from "../../src/core/model.js";
import { estateZone } from "../support/estate.js";

const inst = (root: string, workspace = "default", extra: Partial<PlannedInstance> = {}): PlannedInstance => ({
  root,
  workspace,
  rulesetZones: [],
  feeds: [],
  removals: 1,
  migratedZones: [],
  sharedFiles: [],
  ...extra,
});

describe("estate plan layout and order", () => {
  it("puts the default workspace in DIR/<root>/, the others below it, and a root at the top in _root", () => {
    expect(instanceOutDir("live/prod", "default")).toBe("live/prod");
    expect(instanceOutDir("live/staging", "eu")).toBe("live/staging/eu");
    expect(instanceOutDir(".", "default")).toBe("_root");
    expect(instanceOutDir(".", "us")).toBe("_root/us");
  });

  it("runs the roots feeding a split zone's ruleset before the root holding it; the rest in path order", () => {
    const owner = inst("a/owner", "default", { rulesetZones: ["z1"] });
    const feeder = inst("z/edge", "default", { removals: 0, feeds: [{ zoneId: "z1", root: "a/owner", workspace: "default" }] });
    const other = inst("m/other");
    const { order, cycle } = safeOrder([owner, feeder, other]);
    expect(order.map((i) => i.root)).toEqual(["m/other", "z/edge", "a/owner"]);
    expect(cycle).toEqual([]);
  });

  it("reports instances feeding each other as a cycle instead of ordering them wrongly", () => {
    const a = inst("a", "default", { rulesetZones: ["z1"], feeds: [{ zoneId: "z2", root: "b", workspace: "default" }] });
    const b = inst("b", "default", { rulesetZones: ["z2"], feeds: [{ zoneId: "z1", root: "a", workspace: "default" }] });
    const { cycle } = safeOrder([a, b]);
    expect(cycle.map((i) => i.root)).toEqual(["a", "b"]);
    expect(renderEstateMarkdown({ outDir: "out", version: "0", instances: [a, b] })).toContain("## Cannot be ordered safely");
  });

  it("ESTATE.md: KEEP_BLOCKS first for migrations editing a shared module, then the second pass", () => {
    const md = renderEstateMarkdown({
      outDir: "out",
      version: "0",
      instances: [inst("live/prod", "default", { rulesetZones: ["z"], sharedFiles: ["modules/waf/main.tf"] }), inst("live/staging", "eu", { rulesetZones: ["y"], sharedFiles: ["modules/waf/main.tf"] }), inst("live/dns", "default", { removals: 0 })],
    });
    expect(md).toContain("KEEP_BLOCKS=1 bash out/live/prod/migrate.sh");
    expect(md).toContain("KEEP_BLOCKS=1 bash out/live/staging/eu/migrate.sh");
    expect(md.indexOf("## Then: delete the shared legacy blocks")).toBeGreaterThan(md.indexOf("KEEP_BLOCKS=1 bash out/live/staging/eu/migrate.sh"));
    expect(md).toContain("- `live/dns`: no legacy WAF resources");
    // live/staging runs in workspace eu: its ruleset file is its own, and ESTATE.md says not to copy one over another.
    expect(md).toContain("step 2 of each PLAN.md copies it to its own file (`cf-waf-migrate-ruleset-<workspace>.tf`), never over another workspace's");
  });

  it("ESTATE.md: no word on per-workspace ruleset files when every instance is a default workspace", () => {
    const md = renderEstateMarkdown({ outDir: "out", version: "0", instances: [inst("live/prod", "default", { rulesetZones: ["z"] }), inst("live/dev", "default", { rulesetZones: ["y"] })] });
    expect(md).not.toContain("cf-waf-migrate-ruleset-<workspace>.tf");
  });
});

describe("estate summary", () => {
  const zone = (zoneId: string, root: string, extra: Record<string, unknown> = {}) => estateZone(zoneId, root, extra);
  const A = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
  const B = "1b2c3d4e5f60718293a4b5c6d7e8f901";
  it("says per zone entry: blocked and why (zone or instance errors), needs its id, split, ready, migrated; worst first", () => {
    const report = {
      schemaVersion: 1,
      tool: { name: "t", version: "0" },
      roots: [
        { path: "a", workspace: "default", states: [] },
        { path: "b", workspace: "default", states: [] },
        { path: "m", workspace: "default", states: [], migratedZones: ["3d4e5f60718293a4b5c6d7e8f9011223"] },
      ],
      resources: [],
      zones: [zone(A, "a"), zone(B, "b", { imports: [{ to: "x", id: `zone/${B}/<RULESET_ID>` }] }), zone(A, "b", { imports: [], rulesetIn: { root: "a", workspace: "default" } })],
      findings: [{ code: "PROVIDER_FEATURE_MISSING", severity: "error", message: "", zoneId: null, address: null, file: null, line: null, root: "b", workspace: "default" }],
      errors: [],
    } as unknown as Report;
    expect(estateSummary(report).map((l) => [l.status, l.root, l.zoneId.slice(0, 4), l.reasons.join(",")])).toEqual([
      ["blocked", "b", "1b2c", "PROVIDER_FEATURE_MISSING"],
      ["blocked", "b", "0f1e", "PROVIDER_FEATURE_MISSING"],
      ["ready", "a", "0f1e", ""],
      ["migrated", "m", "3d4e", ""],
    ]);
  });
});
