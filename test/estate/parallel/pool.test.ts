// How many root workers a spilled scan starts (src/estate/parallel/pool.ts): the caller's number, else
// CFWM_ROOT_WORKERS, else one worker beside the main thread on two cores or more, and only when the deferred
// directories hold enough configuration to pay for its start-up.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deferredBytesReach, rootWorkerCount, ROOT_WORKERS_ENV } from "../../../src/estate/parallel/pool.js";

const work = mkdtempSync(path.join(os.tmpdir(), "root-worker-count-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("rootWorkerCount", () => {
  it("takes the caller's number first, then the environment's, else the estate's size decides", () => {
    const big = () => true;
    const small = () => false;
    expect(rootWorkerCount(0, big, { [ROOT_WORKERS_ENV]: "2" })).toBe(0);
    expect(rootWorkerCount(3, small, {})).toBe(3);
    expect(rootWorkerCount(undefined, small, { [ROOT_WORKERS_ENV]: "2" })).toBe(2);
    expect(rootWorkerCount(undefined, big, { [ROOT_WORKERS_ENV]: "0" })).toBe(0);
    expect(rootWorkerCount(undefined, small, {})).toBe(0);
    expect(rootWorkerCount(undefined, big, {})).toBe(Math.min(2, availableParallelism()) - 1);
    // Not a whole number: as if unset.
    expect(rootWorkerCount(undefined, small, { [ROOT_WORKERS_ENV]: "many" })).toBe(0);
  });
});

describe("deferredBytesReach", () => {
  it("adds up the deferred directories' files until the limit, skipping what cannot be read", () => {
    const a = path.join(work, "a.tf");
    const b = path.join(work, "b.tf");
    writeFileSync(a, "x".repeat(600));
    writeFileSync(b, "x".repeat(500));
    const deferred = new Map([
      [work, { files: [a, path.join(work, "missing.tf")], reported: true }],
      [path.join(work, "outside"), { files: null, reported: false }],
      [path.join(work, "b"), { files: [b], reported: true }],
    ]);
    expect(deferredBytesReach(deferred, 1100)).toBe(true);
    expect(deferredBytesReach(deferred, 1101)).toBe(false);
  });
});
