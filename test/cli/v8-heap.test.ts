// An offline scan bounds V8's heap growth (src/cli/v8-heap.ts) unless the user chose one, and scavenges on
// the collecting thread alone when its builder threads take every core.
import { describe, expect, it } from "vitest";
import { HEAP_GROWING_PERCENT, scavengeAlone, userChoseHeapGrowth } from "../../src/cli/v8-heap.js";

describe("heap growth of an offline scan", () => {
  it("is 1.5x the live heap", () => {
    expect(HEAP_GROWING_PERCENT).toBe(50);
  });

  it("is the user's when node's command line or NODE_OPTIONS names one, in either spelling", () => {
    expect(userChoseHeapGrowth([], undefined)).toBe(false);
    expect(userChoseHeapGrowth(["--max-old-space-size=4096"], "--enable-source-maps")).toBe(false);
    expect(userChoseHeapGrowth(["--heap-growing-percent=0"], undefined)).toBe(true);
    expect(userChoseHeapGrowth([], "--enable-source-maps --heap_growing_percent=20")).toBe(true);
    expect(userChoseHeapGrowth(["--heap-growing-percent"], undefined)).toBe(true);
  });
});

describe("scavenges of an offline scan", () => {
  it("run alone when the builder threads are at least as many as the cores", () => {
    expect(scavengeAlone(2, 2, [], undefined)).toBe(true);
    expect(scavengeAlone(2, 1, [], undefined)).toBe(true);
    expect(scavengeAlone(2, 4, [], undefined)).toBe(false);
    expect(scavengeAlone(1, 2, [], undefined)).toBe(false);
  });

  it("are the user's when node's command line names the flag, in either sense and spelling", () => {
    expect(scavengeAlone(2, 2, ["--parallel-scavenge"], undefined)).toBe(false);
    expect(scavengeAlone(2, 2, ["--no-parallel_scavenge"], undefined)).toBe(false);
    expect(scavengeAlone(2, 2, ["--max-old-space-size=4096"], "--enable-source-maps")).toBe(true);
  });
});
