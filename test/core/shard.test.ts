import { describe, expect, it } from "vitest";
import { fnv1a32, normalizeRootPath, parseShardSpec, selectShard, shardOfRoot, ShardSpecError } from "../../src/core/shard.js";

describe("--shard K/N", () => {
  it("parses K/N and refuses everything else with a one-line reason", () => {
    expect(parseShardSpec("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShardSpec(" 1 / 1 ")).toEqual({ index: 1, count: 1 });
    for (const [bad, reason] of [
      ["0/4", /K must be between 1 and 4/],
      ["5/4", /K must be between 1 and 4/],
      ["1/0", /N \(the number of shards\) must be at least 1/],
      ["2", /expected K\/N/],
      ["a/b", /expected K\/N/],
      ["-1/4", /expected K\/N/],
      ["1.5/4", /expected K\/N/],
      ["1/99999", /at most/],
    ] as const) {
      expect(() => parseShardSpec(bad), bad).toThrow(ShardSpecError);
      expect(() => parseShardSpec(bad), bad).toThrow(reason);
    }
  });

  it("hashes with 32-bit FNV-1a over UTF-8 (published test vectors)", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });

  it("normalizes the path so every OS and spelling gives the same shard", () => {
    expect(normalizeRootPath("./live/prod/")).toBe("live/prod");
    expect(normalizeRootPath("live\\prod")).toBe("live/prod");
    expect(normalizeRootPath("live//prod")).toBe("live/prod");
    expect(normalizeRootPath("")).toBe(".");
    expect(normalizeRootPath("./")).toBe(".");
    // NFD (as macOS lists names) and NFC spell the same directory.
    expect(normalizeRootPath("live/cafe\u0301")).toBe(normalizeRootPath("live/caf\u00e9"));
    for (const n of [2, 3, 7, 16]) {
      expect(shardOfRoot("./live\\prod/", n)).toBe(shardOfRoot("live/prod", n));
    }
  });

  it("is fixed per path: pinned values that must never change between releases", () => {
    // These numbers are part of the contract: CI matrices split the same roots the same way after an upgrade.
    expect(fnv1a32("live/prod").toString(16)).toBe("53c2f0fd");
    expect(fnv1a32("live/staging").toString(16)).toBe("fc713089");
    expect([shardOfRoot("live/prod", 4), shardOfRoot("live/staging", 4), shardOfRoot(".", 4)]).toEqual([2, 2, 2]);
    expect([shardOfRoot("live/prod", 16), shardOfRoot("live/staging", 16), shardOfRoot(".", 16)]).toEqual([14, 10, 2]);
  });

  it("puts every root in exactly one shard, and spreads many roots over all shards", () => {
    const roots = Array.from({ length: 1000 }, (_, i) => `teams/t${i % 37}/zone-${i}`);
    for (const n of [1, 2, 5, 16]) {
      const seen = new Map<string, number>();
      const sizes: number[] = [];
      for (let k = 1; k <= n; k++) {
        const part = selectShard(roots, { index: k, count: n }, (r) => r);
        sizes.push(part.length);
        for (const r of part) seen.set(r, (seen.get(r) ?? 0) + 1);
      }
      expect(seen.size).toBe(roots.length);
      expect([...seen.values()].every((c) => c === 1)).toBe(true);
      // Even enough for a CI matrix: no shard is empty or holds more than twice its share.
      for (const s of sizes) {
        expect(s).toBeGreaterThan(0);
        expect(s).toBeLessThanOrEqual((2 * roots.length) / n);
      }
    }
  });
});
