// The streamed JSON report must be byte-for-byte JSON.stringify(report, null, 2): CI jobs diff and parse it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { renderJson, renderJsonChunks } from "../../src/render/json.js";
import { TESTDATA } from "../support/cli.js";

describe("JSON report", () => {
  it.each([
    ["empty object", {}],
    ["empty arrays", { resources: [], errors: [] }],
    ["nested values and undefined fields", { a: [1, { b: [1, 2], c: "x\ny", u: undefined }], d: { e: [] }, u: undefined, n: null }],
    ["primitives and empty containers as values and items", { s: "a\"b", n: -0.5, t: true, list: ["x", 1, null, [], {}, [[]], { k: {} }] }],
    ["the multi-zone plan report", JSON.parse(readFileSync(path.join(TESTDATA, "multi-zone/expected/plan.json"), "utf8"))],
  ])("%s: the chunks join to JSON.stringify's text", (_name, doc) => {
    const expected = JSON.stringify(doc, null, 2) + "\n";
    expect(renderJson(doc as Report)).toBe(expected);
    const chunks = [...renderJsonChunks(doc as Report)];
    expect(chunks.join("")).toBe(expected);
  });

  it("yields one piece per array element, so no piece holds the whole report", () => {
    const doc = { resources: Array.from({ length: 1000 }, (_, i) => ({ address: `cloudflare_waf_rule.r[${i}]` })) } as unknown as Report;
    const chunks = [...renderJsonChunks(doc)];
    expect(chunks.length).toBeGreaterThan(1000);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(100);
  });
});
