// The JSON report's findings merged on a worker (the built modules: the worker runs compiled JavaScript)
// give, byte for byte, the body this thread's merge gives: spilled runs and findings kept in memory, ties
// to the earlier run; a worker that fails part-way is finished here after what it already gave; the worker
// starts only when asked or when the runs are big.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Finding, Severity } from "../../../src/core/model.js";
import { cloudflareTreeFiles } from "../../../scripts/bench/generate.mjs";
import { ROOT } from "../../support/cli.js";

type Offload = typeof import("../../../src/estate/spill/merge-offload.js");
type Protocol = typeof import("../../../src/estate/spill/merge-protocol.js");
type List = typeof import("../../../src/estate/spill/finding-list.js");
type Record_ = typeof import("../../../src/estate/spill/finding-record.js");
type Records = typeof import("../../../src/estate/spill/records.js");
type Findings = typeof import("../../../src/core/findings.js");
type Spilled = typeof import("../../../src/estate/spill/scan.js");
type Gate = typeof import("../../../src/estate/gate-stream.js");
type Json = typeof import("../../../src/render/json.js");

const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(path.join(ROOT, "dist", rel)).href)) as T;
const work = mkdtempSync(path.join(os.tmpdir(), "merge-offload-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => {
  delete process.env["CFWM_MERGE_WORKER_FAULT"];
  delete process.env["CFWM_MERGE_WORKER"];
});

const SEVERITIES: Severity[] = ["error", "warning", "info"];

/** Findings of `runs` instances: few zones shared between them, so the runs interleave and tie. */
function findingsOf(instance: number, count: number): Finding[] {
  return Array.from({ length: count }, (_, i) => ({
    code: ["LEGACY_WAF_RESOURCE", "VALUE_UNRESOLVED", "OVERRIDE_MODE"][i % 3]!,
    severity: SEVERITIES[(i * 7 + instance) % 3]!,
    message: `finding ${i} of instance ${instance}: ${"x".repeat(200 + ((i * 13) % 300))} “quoted”`,
    zoneId: i % 5 === 0 ? null : `zone-${(i * 3 + instance) % 11}`,
    address: `cloudflare_waf_rule.r${i % 17}`,
    file: `roots/r${instance % 4}/main.tf`,
    line: (i * 31) % 97,
    root: `roots/r${instance % 4}`,
    workspace: "default",
    ...(i % 4 === 0 ? { details: { ruleId: String(100000 + i), list: [i, "a"] } } : {}),
  }));
}

async function fixture(dir: string, instances: number, perInstance: number) {
  const { RecordFile } = await load<Records>("estate/spill/records.js");
  const { findingRecord } = await load<Record_>("estate/spill/finding-record.js");
  const { sortFindings } = await load<Findings>("core/findings.js");
  // Two writers, as this thread and a root worker: runs spread over two files.
  const files = [new RecordFile(path.join(dir, "a.txt")), new RecordFile(path.join(dir, "b.txt"))];
  const runs = [];
  for (let i = 0; i < instances; i++) {
    const file = files[i % 2]!;
    const start = file.offset;
    // Where the run's info findings (the list's tail) start, as estate/spill/instance.ts records it.
    let tail = -1;
    for (const f of sortFindings(findingsOf(i, perInstance))) {
      if (tail < 0 && f.severity === "info") tail = file.offset;
      file.append(findingRecord(f));
    }
    runs.push({ file, span: { start, end: file.offset }, tail: tail < 0 ? file.offset : tail });
  }
  for (const f of files) f.flush();
  const inMemory = sortFindings(findingsOf(99, 40).map((f) => ({ ...f, code: "RULESET_ID_UNKNOWN" })));
  // A second run kept in memory (gate's findings): the same keys as instance 0's, so every one of them ties.
  const extra = sortFindings(findingsOf(0, 25).map((f) => ({ ...f, message: `gate: ${f.message}` })));
  return { runs, inMemory, extra, close: () => files.forEach((f) => f.close()) };
}

describe("the findings' merge on a worker", () => {
  it("gives this thread's body, in pieces, and finishes here after a worker that fails", async () => {
    const { startMergeWorker } = await load<Offload>("estate/spill/merge-offload.js");
    const { PIECE_CHARS } = await load<Protocol>("estate/spill/merge-protocol.js");
    const { keyedFindingList, mergeFindingRuns, keyedInMemory, splitRuns } = await load<List>("estate/spill/finding-list.js");
    const dir = mkdtempSync(path.join(work, "body-"));
    const { runs, inMemory, extra, close } = await fixture(dir, 12, 60);
    const merged = () => mergeFindingRuns(runs, [keyedInMemory(inMemory), keyedInMemory(extra)]);
    const count = [...merged()].length;
    // This thread's body: the list without a worker (render/json.ts jsonListBody of the items' texts).
    const expected = [...keyedFindingList(count, merged).jsonBody!()].join("");
    expect(count).toBe(12 * 60 + 40 + 25);
    expect(expected.length).toBeGreaterThan(4 * PIECE_CHARS);
    const spans = runs.map((r) => ({ path: r.file.path, span: r.span, tail: r.tail }));
    const keyed = [[...keyedInMemory(inMemory)], [...keyedInMemory(extra)]];
    const info = (list: Finding[]) => list.filter((f) => f.severity === "info");
    const tail = {
      merged: () => mergeFindingRuns(splitRuns(runs).tail, [keyedInMemory(info(inMemory)), keyedInMemory(info(extra))]),
      afterOthers: true,
      file: path.join(dir, "merged-tail.txt"),
    };

    // No directory to write into: the merge stays here.
    expect(startMergeWorker(path.join(dir, "gone"), spans, keyed, { CFWM_MERGE_WORKER: "1" })).toBeNull();
    const offloaded = startMergeWorker(dir, spans, keyed, { CFWM_MERGE_WORKER: "1" });
    expect(offloaded).not.toBeNull();
    const pieces = [...offloaded!.body(merged)];
    expect(pieces.join("")).toBe(expected);
    // Whole pieces from the worker (PIECE_CHARS and more each), not one piece per finding.
    expect(pieces.length).toBeLessThanOrEqual(Math.ceil(expected.length / PIECE_CHARS));

    // The list's tail (info findings) merged here, the worker leaving it: the same body.
    rmSync(path.join(dir, "merged-findings.txt"));
    process.env["CFWM_MERGE_WORKER_FAULT"] = "no-tail";
    const shared = startMergeWorker(dir, spans, keyed, { CFWM_MERGE_WORKER: "1" });
    expect([...shared!.body(merged, tail)].join("")).toBe(expected);
    expect(existsSync(tail.file)).toBe(true);
    expect(info([...inMemory, ...extra]).length).toBeGreaterThan(0);

    rmSync(path.join(dir, "merged-findings.txt"));
    process.env["CFWM_MERGE_WORKER_FAULT"] = "throw";
    const failing = startMergeWorker(dir, spans, keyed, { CFWM_MERGE_WORKER: "1" });
    const rest = [...failing!.body(merged)];
    expect(rest.join("")).toBe(expected);
    // The worker's first piece, then one piece per finding merged here.
    const first = rest[0]!;
    const inFirst = first.split("\n    {").length - 1;
    expect(first.length).toBeGreaterThanOrEqual(PIECE_CHARS);
    expect(rest.length).toBe(1 + count - inFirst);
    close();
  });

  it("starts only when asked or when the runs are big, and stops when the report stops reading", async () => {
    const { startMergeWorker, MERGE_WORKER_MIN_BYTES } = await load<Offload>("estate/spill/merge-offload.js");
    const { mergeFindingRuns, keyedInMemory } = await load<List>("estate/spill/finding-list.js");
    const dir = mkdtempSync(path.join(work, "when-"));
    const { runs, inMemory, close } = await fixture(dir, 6, 40);
    const spans = runs.map((r) => ({ path: r.file.path, span: r.span, tail: r.tail }));
    const keyed = [[...keyedInMemory(inMemory)]];
    const bytes = spans.reduce((n, s) => n + s.span.end - s.span.start, 0);
    expect(bytes).toBeLessThan(MERGE_WORKER_MIN_BYTES);
    expect(startMergeWorker(dir, spans, keyed, {})).toBeNull();
    expect(startMergeWorker(dir, spans, keyed, { CFWM_MERGE_WORKER: "0" })).toBeNull();
    const big = spans.map((s) => ({ ...s, span: { start: s.span.start, end: s.span.start + MERGE_WORKER_MIN_BYTES } }));
    expect(startMergeWorker(dir, big, keyed, { CFWM_MERGE_WORKER: "0" })).toBeNull();
    const offloaded = startMergeWorker(dir, spans, keyed, { CFWM_MERGE_WORKER: "1" });
    const body = offloaded!.body(() => mergeFindingRuns(runs, [keyedInMemory(inMemory)]));
    expect(body.next().done).toBe(false);
    offloaded!.close();
    // Closed: what is left is merged here (the report keeps its findings whatever happened to the worker).
    const after = [...body];
    expect(after.length).toBeGreaterThan(0);
    close();
  });

  it("merges gate's report on the worker: the gate's findings go into the spilled list, not around it", async () => {
    const { scanEstateSpilled } = await load<Spilled>("estate/spill/scan.js");
    const { GateStream } = await load<Gate>("estate/gate-stream.js");
    const { renderJson } = await load<Json>("render/json.js");
    const tree = mkdtempSync(path.join(work, "gate-tree-"));
    for (const [name, text] of cloudflareTreeFiles({ seed: 20240601, files: 10, bytes: 200_000 }) as Map<string, string>) {
      mkdirSync(path.dirname(path.join(tree, name)), { recursive: true });
      writeFileSync(path.join(tree, name), text);
    }
    const gatedJson = async (env: Record<string, string>) => {
      Object.assign(process.env, env);
      const spill = mkdtempSync(path.join(work, "gate-spill-"));
      const gate = new GateStream("4.52.0");
      const options = { paths: ["."], statePaths: [], cwd: tree, readStdin: async () => Buffer.alloc(0), analyze: {}, rulesetRoots: () => ({}), version: "t", root: () => ".", gate: gate.add };
      const scanned = await scanEstateSpilled(options, spill, { workers: 0 });
      try {
        const gated = await gate.finish(scanned.report, scanned.severities);
        return { json: renderJson(gated.report), files: readdirSync(spill) };
      } finally {
        scanned.close();
      }
    };
    const alone = await gatedJson({ CFWM_MERGE_WORKER: "0" });
    expect(alone.json).toContain('"code": "PROVIDER_UPGRADE_BLOCKED"');
    expect(alone.files).not.toContain("merged-findings.txt");
    // The tail left to this thread: its file exists only when the gated list's body is the worker's.
    const offloaded = await gatedJson({ CFWM_MERGE_WORKER: "1", CFWM_MERGE_WORKER_FAULT: "no-tail" });
    expect(offloaded.json).toBe(alone.json);
    expect(offloaded.files).toEqual(expect.arrayContaining(["merged-findings.txt", "merged-tail.txt"]));
  });
});
