// A spilled scan tells its caller how many root workers start (the command line then decides how V8
// scavenges, src/cli/v8-heap.ts): the built modules, since root workers run compiled JavaScript.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, TESTDATA } from "../../support/cli.js";

type Spilled = typeof import("../../../src/estate/spill/scan.js");
const work = mkdtempSync(path.join(os.tmpdir(), "root-workers-start-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a spilled scan's root workers", () => {
  it("are announced as they start, with their count; no announcement when none starts", async () => {
    const { scanEstateSpilled } = (await import(pathToFileURL(path.join(ROOT, "dist", "estate/spill/scan.js")).href)) as Spilled;
    const options = { paths: ["."], statePaths: [], cwd: path.join(TESTDATA, "estate"), readStdin: async () => Buffer.alloc(0), analyze: {}, rulesetRoots: () => ({}), version: "t", root: () => "." };
    const started = async (workers: number) => {
      const counts: number[] = [];
      const scanned = await scanEstateSpilled(options, mkdtempSync(path.join(work, "spill-")), { workers, onRootWorkers: (n) => counts.push(n) });
      scanned.close();
      return counts;
    };
    expect(await started(1)).toEqual([1]);
    expect(await started(0)).toEqual([]);
  });
});
