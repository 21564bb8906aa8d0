// Spilled findings merge in sortFindings' order whether they carry sort keys or, with a name outside
// printable ASCII, only their order fields, and mixed with findings kept in memory.
import { describe, expect, it } from "vitest";
import { finding, findingOrderKey, findingSortKey, sortFindings } from "../../../src/core/findings.js";
import type { Finding } from "../../../src/core/model.js";
import { keyedInMemory, mergeKeyed, type SpilledFinding } from "../../../src/estate/spill/finding-list.js";

const at = (file: string, line: number, zoneId = "z1") => finding("LEGACY_WAF_PACKAGE", `package in ${file}`, { zoneId, file, line });
const spilled = (f: Finding): SpilledFinding => ({ sort: findingSortKey(f), keyText: JSON.stringify(findingOrderKey(f)), text: JSON.stringify(f) });
const asFinding = (k: { text: string | null; key?: unknown }) => (k.text === null ? k.key : JSON.parse(k.text));

describe("merging spilled findings", () => {
  it("gives sortFindings' order with and without sort keys, and with findings in memory", () => {
    const runA = sortFindings([at("live/a.tf", 3), at("live/Café.tf", 1), at("live/b.tf", 10), at("live/b.tf", 9, "z0")]);
    const runB = sortFindings([at("live/A.tf", 3), at("live/café.tf", 2), at("live/b.tf", 10, "z2")]);
    const inMemory = sortFindings([at("live/a.tf", 4), at("live/ä.tf", 1)]);
    expect(runA.some((f) => findingSortKey(f) === null)).toBe(true);
    const merged = [...mergeKeyed([runA.map(spilled), runB.map(spilled), keyedInMemory(inMemory)])].map(asFinding);
    expect(merged).toEqual(sortFindings([...runA, ...runB, ...inMemory]));
  });
});
