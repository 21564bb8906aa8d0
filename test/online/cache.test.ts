// The response cache: keyed by credential (hashed), fresh only within --max-age, a damaged entry is a miss,
// a zone's entries can be dropped, and no entry holds the credential.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createRedactor } from "../../src/api/redact.js";
import { credentialFingerprint, ResponseCache } from "../../src/online/cache.js";
import { parseDuration } from "../../src/core/duration.js";

const TOKEN = "Zq8-vT3kLm9pX2rWc7YbN4hJd6Fs1GaE0uKo5Rit";
const OTHER = "Qq1-aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX";
const Z = "0da42c8d2132a9ddaf714f9e7c920711";
const parts = { baseUrl: "https://api.cloudflare.com/client/v4", path: `/zones/${Z}/waf_migration/check`, query: { phase_two: "1" }, zoneId: Z };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function cache(token: string, maxAgeMs: number, now: () => number): ResponseCache {
  const dir = dirs[0] ?? mkdtempSync(path.join(os.tmpdir(), "cfwm-cache-"));
  if (!dirs.length) dirs.push(dir);
  return new ResponseCache(dir, maxAgeMs, credentialFingerprint({ Authorization: `Bearer ${token}` }), createRedactor([token]), now);
}

describe("ResponseCache", () => {
  it("serves an entry within max-age to the same credential only", async () => {
    let t = Date.UTC(2026, 0, 1);
    const now = () => t;
    const mine = cache(TOKEN, 15 * 60_000, now);
    await mine.put(parts, { fetchedAt: new Date(t).toISOString(), result: { compatible: true, echoed: `Bearer ${TOKEN}` } });
    expect(await mine.get(parts)).toEqual({ fetchedAt: new Date(t).toISOString(), result: { compatible: true, echoed: "Bearer [REDACTED]" } });
    expect(await cache(OTHER, 15 * 60_000, now).get(parts)).toBeNull();
    expect(await mine.get({ ...parts, query: { phase_two: "0" } })).toBeNull();
    t += 15 * 60_000 + 1;
    expect(await mine.get(parts)).toBeNull();
    expect(await cache(TOKEN, 0, now).get(parts)).toBeNull();
  });

  it("names files by hashes and keeps no form of the credential", async () => {
    const mine = cache(TOKEN, 60_000, Date.now);
    await mine.put(parts, { fetchedAt: new Date().toISOString(), result: { note: TOKEN.toUpperCase() } });
    const names = readdirSync(dirs[0]!);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^[0-9a-f]{24}-[0-9a-f]{40}\.json$/);
    const text = readFileSync(path.join(dirs[0]!, names[0]!), "utf8");
    expect(createRedactor([TOKEN])(text)).toBe(text);
  });

  it("a damaged entry is a miss; forgetZone drops the zone's entries only", async () => {
    const mine = cache(TOKEN, 60_000, Date.now);
    const other = { ...parts, path: "/zones/ffffffffffffffffffffffffffffffff/waf_migration/check", zoneId: "f".repeat(32) };
    await mine.put(parts, { fetchedAt: new Date().toISOString(), result: 1 });
    await mine.put(other, { fetchedAt: new Date().toISOString(), result: 2 });
    await mine.forgetZone(parts.baseUrl, Z);
    expect(await mine.get(parts)).toBeNull();
    expect(await mine.get(other)).toMatchObject({ result: 2 });
    const file = readdirSync(dirs[0]!).map((n) => path.join(dirs[0]!, n))[0]!;
    writeFileSync(file, "{not json");
    expect(await mine.get(other)).toBeNull();
  });

  it("--max-age takes durations as people type them", () => {
    expect([parseDuration("15m"), parseDuration("2h"), parseDuration("90s"), parseDuration("0"), parseDuration("1.5h")]).toEqual([900_000, 7_200_000, 90_000, 0, 5_400_000]);
    expect([parseDuration("soon"), parseDuration("-1m"), parseDuration("")]).toEqual([null, null, null]);
  });
});
