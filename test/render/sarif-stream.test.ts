// SARIF from a report whose lists are read back from disk (a large scan, estate/spill): written one result
// at a time from lists that can only be walked, the same text as the whole report gives, and the text is
// exactly what JSON.stringify(log, null, 2) writes.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Report, ReportList, StreamedReport } from "../../src/core/model.js";
import { emitReport } from "../../src/cli/report-output.js";
import { renderSarif, renderSarifChunks } from "../../src/render/sarif.js";
import { emptyReport, handReport, multiZoneReport } from "./fixtures.js";

/** A list that can only be walked (no array methods), afresh each time, counting its walks. */
function walkOnly<T>(items: readonly T[]): ReportList<T> & { walks: number } {
  const list = {
    walks: 0,
    length: items.length,
    *[Symbol.iterator]() {
      list.walks++;
      yield* items;
    },
  };
  return list;
}

function streamed(report: Report): StreamedReport & { findings: ReturnType<typeof walkOnly> } {
  return { ...report, resources: walkOnly(report.resources), zones: walkOnly(report.zones), findings: walkOnly(report.findings) };
}

const withErrors = (): Report => ({ ...handReport(), errors: [{ file: "bad.tf", line: 3, column: 7, message: "Invalid expression" }] });

describe("renderSarifChunks", () => {
  it.each([
    ["no results", emptyReport],
    ["findings", handReport],
    ["findings and an input error", withErrors],
    ["several zones", multiZoneReport],
  ])("%s: the whole report's text, from lists that can only be walked, one result a piece", async (_, make) => {
    const report = await make();
    const whole = renderSarif(report, { srcRootUri: "file:///work/" });
    const walked = streamed(report);
    const pieces = [...renderSarifChunks(walked, { srcRootUri: "file:///work/" })];
    expect(pieces.join("")).toBe(whole);
    expect(whole).toBe(JSON.stringify(JSON.parse(whole), null, 2) + "\n");
    // Twice: the rules, then the results (none to write: once).
    expect(walked.findings.walks).toBe(report.findings.length + report.errors.length ? 2 : 1);
    expect(pieces.length).toBeGreaterThanOrEqual(report.findings.length + report.errors.length);
  });
});

describe("emitReport", () => {
  it("writes SARIF (and JSON) of a streamed report without the whole report; other formats get it whole", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "sarif-stream-"));
    const report = handReport();
    let wholeAsked = 0;
    const whole = () => {
      wholeAsked++;
      return report;
    };
    const formats = ["sarif", "json"].map((f) => `${f}=${path.join(dir, f)}`);
    await emitReport(streamed(report), { formats, title: "scan", allowed: ["json", "sarif", "junit"], whole });
    expect(wholeAsked).toBe(0);
    expect(readFileSync(path.join(dir, "sarif"), "utf8")).toBe(renderSarif(report, { srcRootUri: new URL(`file://${process.cwd()}/`).href }));
    await emitReport(streamed(report), { formats: [`junit=${path.join(dir, "junit")}`], title: "scan", allowed: ["json", "sarif", "junit"], whole });
    expect(wholeAsked).toBe(1);
  });
});
