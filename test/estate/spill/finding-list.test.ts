// Spilled findings (their order fields and report text) merge with findings kept in memory in sortFindings'
// order, names outside ASCII and in both cases included, and walk back as the findings they were.
import { describe, expect, it } from "vitest";
import { finding, findingOrderKey, LAST_SEVERITY, sortFindings } from "../../../src/core/findings.js";
import type { Finding } from "../../../src/core/model.js";
import { keyedFindingList, keyedInMemory, mergeKeyed, type KeyedFinding } from "../../../src/estate/spill/finding-list.js";

const at = (file: string, line: number, zoneId = "z1") => finding("LEGACY_WAF_PACKAGE", `package in ${file}`, { zoneId, file, line });
const spilled = (f: Finding): KeyedFinding => ({ key: findingOrderKey(f), text: JSON.stringify(f) });

describe("merging spilled findings", () => {
  it("gives sortFindings' order, and the findings themselves when walked", () => {
    const runA = sortFindings([at("live/a.tf", 3), at("live/Café.tf", 1), at("live/b.tf", 10), at("live/b.tf", 9, "z0")]);
    const runB = sortFindings([at("live/A.tf", 3), at("live/café.tf", 2), at("live/b.tf", 10, "z2")]);
    const inMemory = sortFindings([at("live/a.tf", 4), at("live/ä.tf", 1)]);
    const list = keyedFindingList(9, () => mergeKeyed([runA.map(spilled), runB.map(spilled), keyedInMemory(inMemory)]));
    expect([...list]).toEqual(sortFindings([...runA, ...runB, ...inMemory]));
  });

  it("splits at the last severity: in any sorted list its findings are a suffix (the merge's tail)", () => {
    const mixed = (["warning", "info", "error", "info", "warning"] as const).map((severity, i) => ({ ...at(`live/${i}.tf`, i), severity }));
    const sorted = sortFindings(mixed);
    expect(LAST_SEVERITY).toBe("info");
    const first = sorted.findIndex((f) => f.severity === LAST_SEVERITY);
    expect(first).toBeGreaterThan(0);
    expect(sorted.slice(first).every((f) => f.severity === LAST_SEVERITY)).toBe(true);
    expect(sorted.slice(0, first).some((f) => f.severity === LAST_SEVERITY)).toBe(false);
  });
});
