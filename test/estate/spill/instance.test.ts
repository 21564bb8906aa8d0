// One instance's spilled share (estate/spill/instance.ts): what stays in memory of the findings the split-zone
// join may drop (RULESET_ID_UNKNOWN, one per zone) is their order keys alone; their text waits in the
// findings file, after the instance's run, and is what the in-memory report prints for them.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findingOrderKey } from "../../../src/core/findings.js";
import type { Finding } from "../../../src/core/model.js";
import { streamEstate } from "../../../src/estate/load.js";
import { analyseForReport } from "../../../src/estate/stream.js";
import { JOIN_FILTERED, spillInstance, type SpilledInstance, type SpillFiles } from "../../../src/estate/spill/instance.js";
import { RecordFile } from "../../../src/estate/spill/records.js";
import { reportItemJson } from "../../../src/render/json.js";
import { TESTDATA } from "../../support/cli.js";
import { ESTATE_STATES } from "../../support/estate.js";

const noStdin = async () => Buffer.alloc(0);
const estate = { paths: ["."], statePaths: [...ESTATE_STATES], cwd: path.join(TESTDATA, "estate"), readStdin: noStdin };

let dir: string;
beforeEach(() => void (dir = mkdtempSync(path.join(os.tmpdir(), "spill-instance-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("spillInstance", () => {
  it("keeps only the order keys of the findings the join may drop, and their report text on disk after the run", async () => {
    const files: SpillFiles = {
      resources: new RecordFile(path.join(dir, "resources.txt")),
      zones: new RecordFile(path.join(dir, "zones.txt")),
      findings: new RecordFile(path.join(dir, "findings.txt")),
      inventories: new RecordFile(path.join(dir, "inventories.bin")),
    };
    try {
      // Each instance analysed twice: once kept whole (what the in-memory scan prints), once spilled.
      const { instances } = await streamEstate(estate, (instance) => {
        const whole = analyseForReport(instance, {}).analysed.instance.analysis.findings.filter((f) => f.code === JOIN_FILTERED);
        return { whole, spilled: spillInstance(instance, {}, files) };
      });
      const pairs: [Finding, Finding, SpilledInstance, number][] = instances.flatMap(({ whole, spilled }) =>
        spilled.analysed.instance.analysis.findings.map((held, i) => [whole[i]!, held, spilled, i] as [Finding, Finding, SpilledInstance, number]),
      );
      expect(pairs.length).toBeGreaterThan(1);
      for (const [whole, held, spilled, i] of pairs) {
        expect(whole.code).toBe(JOIN_FILTERED);
        // Nothing but the fields the join filters and the merge sorts by; no message, no details.
        expect(held).toEqual(findingOrderKey(whole));
        expect(Object.keys(held).sort()).toEqual(Object.keys(findingOrderKey(whole)).sort());
        expect(files.findings.text(spilled.kept[i]!)).toBe(reportItemJson(whole));
        expect(spilled.kept[i]!.start).toBeGreaterThanOrEqual(spilled.run.end);
      }
      // Every instance's findings run holds none of them.
      for (const { spilled } of instances) {
        if (spilled.run.end > spilled.run.start) expect(files.findings.text(spilled.run)).not.toContain(`"code": "${JOIN_FILTERED}"`);
      }
    } finally {
      Object.values(files).forEach((f) => f.close());
    }
  });
});
