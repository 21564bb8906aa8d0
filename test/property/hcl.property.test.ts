// The scanner's parsing never crashes on broken input, and the structural pass agrees with hcl2json
// (fixed-seed samples of the fuzz run's properties; `npm run fuzz` runs 100,000+ cases).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as hcl2json } from "@cdktn/hcl2json";
import { describe, expect, it } from "vitest";
import { scanStructure } from "../../src/terraform/hcl/structure.js";
import { TESTDATA } from "../support/cli.js";
import { checkProperty, properties } from "../support/generators.js";

function tfFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tfFiles(path.join(dir, e.name)) : e.name.endsWith(".tf") ? [path.join(dir, e.name)] : [],
  );
}

describe("HCL parsing under mutation", () => {
  it("parseConfigFile never throws; every failure names file, line and column", async () => {
    const stats = await checkProperty(properties.hclParse, { numRuns: 150, seed: 1 });
    expect(stats.get("parsed")).toBeGreaterThan(0);
    expect(stats.get("error (line and column)")).toBeGreaterThan(0);
  });

  it("selective reading gives what the full reading gives, and skimming never throws", async () => {
    await checkProperty(properties.hclSelective, { numRuns: 80, seed: 2 });
  });
});

describe("differential parsing: structural pass vs @cdktn/hcl2json", () => {
  it("agree on every fixture (testdata/**/*.tf): block types, labels, counts, ranges", async () => {
    const files = tfFiles(TESTDATA);
    expect(files.length).toBeGreaterThan(10);
    let accepted = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const structure = scanStructure(text);
      let body: Record<string, unknown>;
      try {
        body = (await hcl2json(path.basename(file), text)) as Record<string, unknown>;
      } catch {
        // A fixture hcl2json rejects (testdata/broken): the structural pass may or may not flag it.
        continue;
      }
      accepted++;
      expect(structure.error, file).toBeNull();
      const fromStructure = structure.blocks.map((b) => JSON.stringify([b.type, ...b.labels])).sort();
      const fromHcl2json: string[] = [];
      const visit = (v: unknown, type: string, labels: string[]): void => {
        if (Array.isArray(v)) v.forEach(() => fromHcl2json.push(JSON.stringify([type, ...labels])));
        else for (const [k, inner] of Object.entries(v as object)) visit(inner, type, [...labels, k]);
      };
      for (const [type, v] of Object.entries(body)) if (!structure.attributes.includes(type)) visit(v, type, []);
      expect(fromStructure, file).toEqual(fromHcl2json.sort());
      for (const b of structure.blocks) {
        expect(text.slice(b.start, b.end), file).toMatch(new RegExp(`^${b.type}[\\s\\S]*\\}$`));
        expect(text.slice(0, b.start).split("\n").length, file).toBe(b.line);
      }
    }
    expect(accepted).toBeGreaterThan(10);
  });

  it("agree on generated and mutated files (where hcl2json accepts)", async () => {
    const stats = await checkProperty(properties.hclDifferential, { numRuns: 200, seed: 3 });
    expect([...stats.keys()].some((k) => k.startsWith("both accept"))).toBe(true);
  });

  it("hcl2-parser, as a second opinion, sees the same blocks and values where it can parse", async () => {
    const stats = await checkProperty(properties.hclSecondOpinion, { numRuns: 30, seed: 4 });
    if (stats.has("hcl2-parser not installed")) return; // counted, and said so by the fuzz run
    expect(stats.get("same values")).toBeGreaterThan(0);
  });
});
