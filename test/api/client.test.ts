import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiClient, ApiConfigError, ApiError, CredentialsError, createApiClient, normalizeBaseUrl } from "../../src/api/index.js";
import { startFakeCloudflare, sampleZones, ZONE_PRO, type FakeCloudflare } from "../support/fake-cloudflare.js";
import { EMAIL, KEY, TOKEN, fakeClock } from "./helpers.js";

const CHECK = `/zones/${ZONE_PRO}/waf_migration/check`;
const checkReq = { method: "GET" as const, path: CHECK, query: { phase_two: "1" } };

let fake: FakeCloudflare;
beforeEach(async () => {
  fake = await startFakeCloudflare({ zones: sampleZones(), credentials: { token: TOKEN, email: EMAIL, key: KEY } });
});
afterEach(async () => {
  await fake.close();
});

function client(extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({ env: { CLOUDFLARE_API_TOKEN: TOKEN }, baseUrl: fake.baseUrl, sleep: async () => {}, ...extra });
}

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("expected an ApiError");
}

describe("request and envelope", () => {
  it("sends bearer auth, JSON headers and the query, and returns the envelope's result", async () => {
    const res = await client().request<{ compatible: boolean }>(checkReq);
    expect(res.status).toBe(200);
    expect(res.result).toEqual({ compatible: true, migration_state: "start" });
    expect(res.attempts).toBe(1);
    expect(fake.requests).toHaveLength(1);
    const r = fake.requests[0];
    expect(r.method).toBe("GET");
    expect(r.path).toBe(CHECK);
    expect(r.query).toEqual({ phase_two: "1" });
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers.accept).toBe("application/json");
    expect(r.headers["x-auth-key"]).toBeUndefined();
    expect(r.headers["content-type"]).toBeUndefined();
    expect(r.body).toBe("");
  });

  it("turns an error envelope into an ApiError with status, codes and messages", async () => {
    fake.inject({ path: CHECK }, { type: "error", status: 400, errors: [{ code: 1003, message: "Invalid or missing zone id." }], messages: [{ code: 1, message: "see docs" }] });
    const err = await caught(client().request(checkReq));
    expect(err.kind).toBe("http");
    expect(err.status).toBe(400);
    expect(err.errors).toEqual([{ code: 1003, message: "Invalid or missing zone id." }]);
    expect(err.messages).toEqual([{ code: 1, message: "see docs" }]);
    expect(err.method).toBe("GET");
    expect(err.path).toBe(`${CHECK}?phase_two=1`);
    expect(err.message).toBe(`GET ${CHECK}?phase_two=1 failed: HTTP 400: [1003] Invalid or missing zone id.`);
  });

  it("treats success=false with HTTP 200 as an error", async () => {
    fake.inject({ path: CHECK }, { type: "error", status: 200, errors: [{ code: 10000, message: "nope" }] });
    const err = await caught(client().request(checkReq));
    expect(err.status).toBe(200);
    expect(err.message).toContain("HTTP 200 with success=false: [10000] nope");
  });

  it("explains a 401 by naming the credential variables", async () => {
    const err = await caught(client({ env: { CLOUDFLARE_API_TOKEN: "wrong-token" } }).request(checkReq));
    expect(err.status).toBe(401);
    expect(err.errors[0]).toEqual({ code: 10000, message: "Authentication error" });
    expect(err.message).toContain("CLOUDFLARE_API_TOKEN");
    expect(err.message).not.toContain("wrong-token");
  });

  it("reports malformed JSON with the status and the length, never the body (issue 18 §3)", async () => {
    fake.inject({ path: CHECK }, { type: "malformed", status: 200, body: "<html><body>Gateway says hi</body></html>" });
    const err = await caught(client().request(checkReq));
    expect(err.kind).toBe("malformed");
    expect(err.status).toBe(200);
    expect(err.message).toContain("HTTP 200 with a body that is not valid JSON");
    expect(err.message).toContain("(41 characters, not shown)");
    expect(err.message).not.toContain("Gateway says hi");
    expect(fake.requests).toHaveLength(1); // a 2xx is never retried
  });

  it("quotes no part of a body that is not an envelope, and caps the envelope's messages", async () => {
    fake.inject({ path: CHECK }, { type: "malformed", status: 404, body: "x".repeat(500) });
    const err = await caught(client().request(checkReq));
    expect(err.status).toBe(404);
    expect(err.message).toContain("500 characters, not shown");
    expect(err.message).not.toContain("xx");

    const errors = Array.from({ length: 12 }, (_, i) => ({ code: 1000 + i, message: `m${i} ${"y".repeat(1_000)}` }));
    fake.inject({ path: CHECK }, { type: "http", status: 400, body: JSON.stringify({ success: false, errors, messages: [], result: null }) });
    const capped = await caught(client().request(checkReq));
    expect(capped.message).toContain(`[1000] m0 ${"y".repeat(297)}… (1003 characters)`);
    expect(capped.message).not.toContain("y".repeat(298));
    expect(capped.message).toContain("and 2 more");
    expect(capped.message).not.toContain("[1010]");
    expect(capped.errors).toHaveLength(10);
    expect(capped.errors.every((e) => e.message.length < 340)).toBe(true);
  });

  it("rejects JSON that is not an envelope, unless the operation's body is unspecified", async () => {
    fake.inject({ path: CHECK }, { type: "http", status: 200, body: '{"compatible":true}' });
    const err = await caught(client().request(checkReq));
    expect(err.kind).toBe("malformed");
    expect(err.message).toContain('not a Cloudflare API envelope (no boolean "success"; 19 characters, not shown)');
    expect(err.message).not.toContain("compatible");

    fake.inject({ path: CHECK }, { type: "http", status: 200, body: '{"compatible":true}' });
    const ok = await client().request({ ...checkReq, envelope: "optional" });
    expect(ok.result).toEqual({ compatible: true });

    fake.inject({ path: CHECK }, { type: "http", status: 200, body: "" });
    const empty = await client().request({ ...checkReq, envelope: "optional" });
    expect(empty.result).toBeNull();
  });
});

describe("retries", () => {
  it("retries a 500 and then succeeds", async () => {
    fake.inject({ path: CHECK }, { type: "http", status: 500, body: "oops" });
    const logs: string[] = [];
    const clock = fakeClock();
    const res = await client({ sleep: clock.sleep, now: clock.now, random: () => 0.5, log: (l) => logs.push(l) }).request(checkReq);
    expect(res.result).toEqual({ compatible: true, migration_state: "start" });
    expect(res.attempts).toBe(2);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${CHECK}`, `GET ${CHECK}`]);
    expect(clock.sleeps).toEqual([375]); // base 500: half fixed + half * 0.5
    expect(logs).toEqual([`GET ${CHECK}?phase_two=1: HTTP 500 (server error); retrying in 0.38 s (attempt 2 of 5)`]);
  });

  it("backs off exponentially and gives up after maxAttempts 5xx responses", async () => {
    fake.inject({ path: CHECK }, { type: "error", status: 503, errors: [{ code: 10500, message: "overloaded" }] }, 10);
    const clock = fakeClock();
    const err = await caught(client({ sleep: clock.sleep, now: clock.now, random: () => 1 }).request(checkReq));
    expect(err.kind).toBe("server");
    expect(err.status).toBe(503);
    expect(err.attempts).toBe(5);
    expect(fake.requests).toHaveLength(5);
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000]);
    expect(err.message).toContain("kept failing with HTTP 503 (server error); gave up after 5 attempts in 7.5 s; service said: [10500] overloaded");
  });

  it("honours Retry-After in seconds on 429", async () => {
    fake.inject({ path: CHECK }, { type: "rate-limit", retryAfter: "2" });
    const clock = fakeClock();
    const logs: string[] = [];
    const res = await client({ sleep: clock.sleep, now: clock.now, log: (l) => logs.push(l) }).request(checkReq);
    expect(res.attempts).toBe(2);
    expect(clock.sleeps).toEqual([2000]);
    expect(logs[0]).toContain("the service is rate limiting (HTTP 429); retrying in 2 s as Retry-After asks");
  });

  it("honours Retry-After as an HTTP date", async () => {
    const clock = fakeClock(Date.parse("2025-01-01T00:00:00Z"));
    fake.inject({ path: CHECK }, { type: "rate-limit", retryAfter: "Wed, 01 Jan 2025 00:00:03 GMT" });
    await client({ sleep: clock.sleep, now: clock.now }).request(checkReq);
    expect(clock.sleeps).toEqual([3000]);
  });

  it("really waits a tiny Retry-After with the default sleep", async () => {
    fake.inject({ path: CHECK }, { type: "rate-limit", retryAfter: "0.05" });
    const started = Date.now();
    const res = await createApiClient({ env: { CLOUDFLARE_API_TOKEN: TOKEN }, baseUrl: fake.baseUrl }).request(checkReq);
    expect(res.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });

  it("says the service is rate limiting when 429s exhaust the attempts", async () => {
    fake.inject({ path: CHECK }, { type: "rate-limit", retryAfter: "1" }, 10);
    const clock = fakeClock();
    const err = await caught(client({ sleep: clock.sleep, now: clock.now }).request(checkReq));
    expect(err.kind).toBe("rate_limited");
    expect(err.status).toBe(429);
    expect(err.attempts).toBe(5);
    expect(err.message).toContain("the Cloudflare API is rate limiting this client (HTTP 429); gave up after 5 attempts in 4 s");
    expect(err.message).toContain("[971] Please wait and consider throttling your request speed");
  });

  it("gives up at once when Retry-After is beyond the total time budget", async () => {
    fake.inject({ path: CHECK }, { type: "rate-limit", retryAfter: "3600" });
    const clock = fakeClock();
    const err = await caught(client({ sleep: clock.sleep, now: clock.now }).request(checkReq));
    expect(err.kind).toBe("rate_limited");
    expect(err.attempts).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect(err.message).toContain("it asked to wait 3600 s (Retry-After), more than the 60 s left of the 60 s retry budget");
  });

  it("stops within the total time budget", async () => {
    fake.inject({ path: CHECK }, { type: "http", status: 502 }, 10);
    const clock = fakeClock();
    const err = await caught(client({ sleep: clock.sleep, now: clock.now, random: () => 1, retry: { maxAttempts: 100, totalTimeMs: 10_000 } }).request(checkReq));
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000]); // the next 8 s wait would pass 10 s
    expect(err.attempts).toBe(5);
    expect(clock.now() - 1_700_000_000_000).toBeLessThanOrEqual(10_000);
  });

  it("retries only 429 for a rate-limit-only request", async () => {
    fake.inject({ method: "PUT" }, { type: "http", status: 500, body: "" });
    const req = { method: "PUT" as const, path: `/zones/${ZONE_PRO}/rulesets/phases/http_request_firewall_managed/entrypoint`, query: { waf_migration: "pending", phase_two: "1" }, body: { name: "default", rules: [] }, retry: "rate-limit-only" as const };
    const err = await caught(client().request(req));
    expect(err.status).toBe(500);
    expect(err.attempts).toBe(1);
    expect(fake.requests).toHaveLength(1);

    fake.inject({ method: "PUT" }, { type: "rate-limit", retryAfter: "0" });
    const ok = await client().request(req);
    expect(ok.attempts).toBe(2);
  });
});

describe("timeouts and network failures", () => {
  it("aborts a response slower than the timeout", async () => {
    fake.inject({ path: CHECK }, { type: "delay", ms: 2_000 });
    const err = await caught(client({ timeoutMs: 100 }).request(checkReq));
    // A timeout error is the proof that it aborted: had it waited, the 2 s answer would have arrived whole.
    // (No wall-clock bound: a busy machine may take longer than the timeout to run the abort.)
    expect(err.kind).toBe("timeout");
    expect(err.status).toBeNull();
    expect(err.message).toBe(`GET ${CHECK}?phase_two=1: no complete response from the Cloudflare API within 0.1 s (request timed out)`);
    expect(fake.requests).toHaveLength(1); // timeouts are not retried
  });

  it("answers normally when the delay is within the timeout", async () => {
    fake.inject({ path: CHECK }, { type: "delay", ms: 20 });
    // A deadline far above the 20 ms delay: a busy machine must not turn the answer into a timeout.
    const res = await client({ timeoutMs: 60_000 }).request(checkReq);
    expect(res.result).toEqual({ compatible: true, migration_state: "start" });
  });

  it("retries connection failures and then reports them", async () => {
    const closed = fake.baseUrl;
    await fake.close();
    const clock = fakeClock();
    const logs: string[] = [];
    const err = await caught(
      createApiClient({ env: { CLOUDFLARE_API_TOKEN: TOKEN }, baseUrl: closed, sleep: clock.sleep, now: clock.now, retry: { maxAttempts: 3 }, log: (l) => logs.push(l) }).request(checkReq),
    );
    expect(err.kind).toBe("network");
    expect(err.attempts).toBe(3);
    expect(err.message).toMatch(new RegExp(`^GET ${CHECK}\\?phase_two=1: could not reach 127\\.0\\.0\\.1:\\d+: ECONNREFUSED[^;]* \\(gave up after 3 attempts\\)$`));
    // Each retry line names the request once (it was doubled: "GET …: GET …: could not reach …").
    expect(logs).toHaveLength(2);
    for (const line of logs) {
      expect(line).toMatch(new RegExp(`^GET ${CHECK}\\?phase_two=1: could not reach 127\\.0\\.0\\.1:\\d+: ECONNREFUSED[^;]*; retrying in [\\d.]+ s \\(attempt [23] of 3\\)$`));
      expect(line.split(CHECK).length - 1).toBe(1);
    }
    fake = await startFakeCloudflare({ zones: [], credentials: {} }); // for afterEach
  });
});

describe("auth", () => {
  it("prefers bearer for migration calls and e-mail + key when the request asks for it", async () => {
    const both = client({ env: { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY } });
    await both.request(checkReq);
    await both.request({ ...checkReq, auth: "email_key" });
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(fake.requests[0].headers["x-auth-email"]).toBeUndefined();
    expect(fake.requests[1].headers.authorization).toBeUndefined();
    expect(fake.requests[1].headers["x-auth-email"]).toBe(EMAIL);
    expect(fake.requests[1].headers["x-auth-key"]).toBe(KEY);
  });

  it("falls back to the only configured scheme", async () => {
    await client({ env: { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY } }).request(checkReq);
    await client({ env: { CLOUDFLARE_API_TOKEN: ` ${TOKEN}\n` } }).request({ ...checkReq, auth: "email_key" });
    expect(fake.requests[0].headers["x-auth-key"]).toBe(KEY);
    expect(fake.requests[1].headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("names the missing variables and sends nothing", async () => {
    await expect(client({ env: {} }).request(checkReq)).rejects.toThrow(
      new CredentialsError("no Cloudflare API credentials: set CLOUDFLARE_API_TOKEN, or both CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY"),
    );
    await expect(client({ env: { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_TOKEN: "  " } }).request(checkReq)).rejects.toThrow(
      "(CLOUDFLARE_EMAIL is set but CLOUDFLARE_API_KEY is not)",
    );
    await expect(client({ env: { CLOUDFLARE_API_KEY: KEY } }).request(checkReq)).rejects.toThrow("(CLOUDFLARE_API_KEY is set but CLOUDFLARE_EMAIL is not)");
    expect(fake.requests).toHaveLength(0);
  });

  it("refuses a credential fetch could not send, without echoing it", async () => {
    const err = await client({ env: { CLOUDFLARE_API_TOKEN: "abc\ndef-secret" } })
      .request(checkReq)
      .then(() => new Error("expected a rejection"), (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(CredentialsError);
    expect(err.message).toContain("CLOUDFLARE_API_TOKEN contains characters that cannot be sent");
    expect(err.message).not.toContain("def-secret");
  });
});

describe("configuration", () => {
  it("validates the base URL", () => {
    expect(normalizeBaseUrl("https://api.cloudflare.com/client/v4/")).toBe("https://api.cloudflare.com/client/v4");
    expect(normalizeBaseUrl("http://127.0.0.1:8080/client/v4")).toBe("http://127.0.0.1:8080/client/v4");
    expect(() => normalizeBaseUrl("http://api.example.com/client/v4")).toThrow(/must use https/);
    expect(() => normalizeBaseUrl("https://user:pw@api.example.com")).toThrow(ApiConfigError);
    expect(() => normalizeBaseUrl("https://user:pw@api.example.com")).not.toThrow(/pw/);
    expect(() => normalizeBaseUrl("not a url")).toThrow(/not a valid absolute URL/);
  });

  it("defaults to the public v4 base URL and builds previews without auth headers", () => {
    const c = createApiClient({ env: { CLOUDFLARE_API_TOKEN: TOKEN } });
    expect(c.baseUrl).toBe("https://api.cloudflare.com/client/v4");
    expect(c.timeoutMs).toBe(30_000);
    expect(c.policy.totalTimeMs).toBe(60_000);
    const preview = c.preview({ method: "PUT", path: "/zones/z/x", query: { a: "1", b: "2" }, body: { k: 1 } });
    expect(preview).toEqual({
      method: "PUT",
      url: "https://api.cloudflare.com/client/v4/zones/z/x?a=1&b=2",
      headers: { Accept: "application/json", "User-Agent": "cf-waf-migrate", "Content-Type": "application/json" },
      body: { k: 1 },
    });
  });

  it("rejects a non-positive timeout", () => {
    expect(() => createApiClient({ env: {}, timeoutMs: 0 })).toThrow(ApiConfigError);
  });
});
