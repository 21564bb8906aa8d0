// The client-side limiter: never more than the limit in any sliding window (property, injected clock),
// Retry-After pauses every caller, and the concurrency bound holds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mapWithConcurrency, RateLimiter, SERVICE_REQUEST_LIMIT, SERVICE_WINDOW_MS } from "../../src/online/limiter.js";
import { maxInAnyWindow } from "../../src/sandbox/api/faults.js";
import { createApiClient } from "../../src/api/client.js";
import { limitedFetch } from "../../src/online/limited-fetch.js";
import { FakeClock } from "./helpers.js";

describe("RateLimiter", () => {
  it("never grants more than the limit in any window, whatever the arrivals, concurrency and pauses", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 100, max: 5_000 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 400 }), pause: fc.option(fc.integer({ min: 1, max: 3_000 }), { freq: 8 }) }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 8 }),
        async (limit, windowMs, arrivals, jobs) => {
          const clock = new FakeClock();
          const limiter = new RateLimiter({ limit, windowMs, now: clock.now, sleep: clock.sleep });
          const granted: number[] = [];
          await mapWithConcurrency(arrivals, jobs, async (a) => {
            await clock.sleep(a.gap);
            const at = await limiter.acquire();
            granted.push(at);
            if (a.pause !== null) limiter.pause(a.pause);
          });
          expect(granted).toHaveLength(arrivals.length);
          expect(maxInAnyWindow(granted, windowMs)).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("keeps 3,000 requests at the real limit under 1,200 per 5 minutes, and takes the time that needs", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ now: clock.now, sleep: clock.sleep });
    const start = clock.now();
    const granted: number[] = [];
    await mapWithConcurrency(Array.from({ length: 3_000 }), 4, async () => {
      granted.push(await limiter.acquire());
    });
    expect(maxInAnyWindow(granted, SERVICE_WINDOW_MS)).toBe(SERVICE_REQUEST_LIMIT);
    // 3,000 = 1,200 + 1,200 + 600: the third batch starts two windows after the first.
    expect(clock.now() - start).toBe(2 * SERVICE_WINDOW_MS);
  });

  it("a Retry-After pause holds every caller until it ends", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ now: clock.now, sleep: clock.sleep });
    await limiter.acquire();
    limiter.pause(30_000);
    const t0 = clock.now();
    const times: number[] = [];
    await Promise.all(
      [0, 1, 2].map(async () => {
        times.push(await limiter.acquire());
      }),
    );
    for (const t of times) expect(t).toBeGreaterThanOrEqual(t0 + 30_000);
    expect(limiter.stats().waitedMs).toBeGreaterThanOrEqual(30_000);
  });
});

describe("mapWithConcurrency", () => {
  it("runs at most `jobs` tasks at once, keeps order, and reports a failing task in its place", async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (n === 4) throw new Error("four");
      return n * 10;
    });
    expect(peak).toBe(3);
    expect(results.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual([10, 20, 30, "four", 50, 60, 70]);
  });
});

describe("the client's wait for a slot", () => {
  const ok = () => new Response(JSON.stringify({ success: true, result: { compatible: true, migration_state: "start" }, errors: [], messages: [] }), { status: 200 });
  const serverError = () => new Response(JSON.stringify({ success: false, result: null, errors: [{ code: 1, message: "x" }], messages: [] }), { status: 500 });

  it("is not part of the request's timeout", async () => {
    const client = createApiClient({
      env: { CLOUDFLARE_API_TOKEN: "t0ken-for-tests-only" },
      baseUrl: "http://127.0.0.1/client/v4",
      timeoutMs: 20,
      acquire: () => new Promise((r) => setTimeout(r, 80)),
      fetch: (async () => ok()) as typeof fetch,
    });
    await expect(client.request({ method: "GET", path: "/zones/x/waf_migration/check" })).resolves.toMatchObject({ status: 200 });
  });

  it("is not part of the retry budget: a retry after a long queue still happens", async () => {
    const clock = new FakeClock();
    let calls = 0;
    const client = createApiClient({
      env: { CLOUDFLARE_API_TOKEN: "t0ken-for-tests-only" },
      baseUrl: "http://127.0.0.1/client/v4",
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0,
      acquire: () => clock.sleep(120_000),
      fetch: (async () => (++calls === 1 ? serverError() : ok())) as typeof fetch,
    });
    await expect(client.request({ method: "GET", path: "/zones/x/waf_migration/check" })).resolves.toMatchObject({ status: 200, attempts: 2 });
  });
});

describe("limitedFetch", () => {
  it("a 429's Retry-After, in seconds or as an HTTP date, pauses the whole limiter", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ now: clock.now, sleep: clock.sleep });
    const answers = [
      new Response("{}", { status: 429, headers: { "Retry-After": "7" } }),
      new Response("{}", { status: 429, headers: { "Retry-After": new Date(clock.now() + 60_000).toUTCString() } }),
    ];
    const f = limitedFetch((async () => answers.shift()!) as typeof fetch, limiter, clock.now);
    await f.fetch("http://127.0.0.1/x");
    expect(await limiter.acquire()).toBe(Date.UTC(2026, 0, 1) + 7_000);
    await f.fetch("http://127.0.0.1/x");
    // The date was 60 s after the start; 7 s have passed.
    expect(await limiter.acquire()).toBe(Date.UTC(2026, 0, 1) + 60_000);
    expect(f.sent()).toBe(2);
  });
});
