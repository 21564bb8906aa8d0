// scan's report with its big lists on disk (estate/spill/scan.ts): byte for byte the report scanEstate keeps
// in memory, split zones joined (their entries patched as they are read back), findings merged from one
// sorted run per instance; and the JSON writer walks the lists without holding them.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wholeReport } from "../../../src/core/report.js";
import { scanEstate, type EstateScanOptions } from "../../../src/estate/scan.js";
import { scanEstateSpilled } from "../../../src/estate/spill/scan.js";
import { renderJson } from "../../../src/render/json.js";
import { TESTDATA } from "../../support/cli.js";
import { ESTATE_STATES } from "../../support/estate.js";

const ESTATE = path.join(TESTDATA, "estate");
const noStdin = async () => Buffer.alloc(0);
const opts = (rulesetRoots: Record<string, string> = {}): EstateScanOptions => ({
  paths: ["."],
  statePaths: [...ESTATE_STATES],
  cwd: ESTATE,
  readStdin: noStdin,
  analyze: {},
  rulesetRoots: () => rulesetRoots,
  version: "t",
  root: () => ".",
});

let dir: string;
beforeEach(() => void (dir = mkdtempSync(path.join(os.tmpdir(), "spill-test-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("scan report spilled to disk", () => {
  it("writes the JSON scanEstate writes: split zone joined, RULESET_ID_UNKNOWN dropped where the join drops it", async () => {
    const { report: inMemory } = await scanEstate(opts());
    expect(inMemory.findings.some((f) => f.code === "ZONE_SPLIT_ACROSS_ROOTS")).toBe(true);
    expect(inMemory.findings.some((f) => f.code === "RULESET_ID_UNKNOWN")).toBe(true);
    expect(inMemory.zones.some((z) => z.rulesetIn !== undefined)).toBe(true);
    const spilled = await scanEstateSpilled(opts(), dir);
    try {
      expect(readdirSync(dir).sort()).toEqual(["findings.txt", "inventories.bin", "resources.txt", "zones.txt"]);
      // The zones' inventories wait on disk too (the join reads the split zone's back).
      expect(statSync(path.join(dir, "inventories.bin")).size).toBeGreaterThan(0);
      expect(renderJson(spilled.report)).toBe(renderJson(inMemory));
      // Walked twice (a second --format): the same lists again.
      expect(JSON.stringify(wholeReport(spilled.report))).toBe(JSON.stringify(inMemory));
      expect([...spilled.severities].sort()).toEqual([...new Set(inMemory.findings.map((f) => f.severity))].sort());
      expect(spilled.report.findings.length).toBe(inMemory.findings.length);
      expect(spilled.report.zones.length).toBe(inMemory.zones.length);
      expect(spilled.report.resources.length).toBe(inMemory.resources.length);
    } finally {
      spilled.close();
    }
  });

  it("honours --ruleset-root for a split zone, as the in-memory scan does", async () => {
    const chosen = { "0f1e2d3c4b5a69788796a5b4c3d2e1f0": "live/edge" };
    const { report: inMemory } = await scanEstate(opts(chosen));
    const spilled = await scanEstateSpilled(opts(chosen), dir);
    try {
      expect(renderJson(spilled.report)).toBe(renderJson(inMemory));
    } finally {
      spilled.close();
    }
  });

  it("gives the in-memory report of an estate without a split zone, and of an empty one", async () => {
    for (const o of [{ ...opts(), cwd: path.join(TESTDATA, "split-stacks"), statePaths: [] }, { ...opts(), cwd: os.tmpdir(), paths: [dir], statePaths: [] }]) {
      const { report: inMemory } = await scanEstate(o);
      const sub = mkdtempSync(path.join(dir, "s-"));
      const spilled = await scanEstateSpilled(o, sub);
      try {
        expect(renderJson(spilled.report)).toBe(renderJson(inMemory));
      } finally {
        spilled.close();
      }
    }
  });
});
