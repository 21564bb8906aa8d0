import { describe, expect, it } from "vitest";
import { backoffDelay, createRedactor, DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfter, REDACTED } from "../../src/api/index.js";

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1_500);
  });
  it("reads HTTP dates; past dates mean now", () => {
    expect(parseRetryAfter("Sun, 01 Jun 2025 12:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Sun, 01 Jun 2025 11:00:00 GMT", now)).toBe(0);
  });
  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("backoff", () => {
  it("doubles, is capped, and is jittered between half and full", () => {
    const p = DEFAULT_RETRY_POLICY;
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, p, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([1, 2, 3].map((a) => backoffDelay(a, p, () => 0))).toEqual([250, 500, 1000]);
  });
  it("retries 429 and 5xx only", () => {
    expect([429, 500, 502, 503, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 409].some(isRetryableStatus)).toBe(false);
  });
});

describe("redaction", () => {
  it("replaces every secret, encoded forms included, longest first", () => {
    const r = createRedactor(["tok123", "a+b@x.example", "", undefined, "tok123456"]);
    expect(r("Bearer tok123456 and tok123 and a%2Bb%40x.example and a+b@x.example")).toBe(
      `Bearer ${REDACTED} and ${REDACTED} and ${REDACTED} and ${REDACTED}`,
    );
  });
  it("is the identity without secrets, and leaves strings too short to be credentials alone", () => {
    expect(createRedactor([])("nothing here")).toBe("nothing here");
    expect(createRedactor(["x", "true"])('{"action":"execute","expression":"true"}')).toBe('{"action":"execute","expression":"true"}');
  });
});
