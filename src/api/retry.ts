// Retry policy: which responses are retried, how long to wait, and when to give up.
// Pure functions plus the default sleep; the client drives the loop.

export interface RetryPolicy {
  /** Total requests including the first one. */
  maxAttempts: number;
  /** Backoff before the second attempt; doubles each time. */
  baseDelayMs: number;
  /** Upper bound of one backoff wait (a Retry-After value is honoured beyond it, within the budget). */
  maxDelayMs: number;
  /** Give up rather than start a wait that would end later than this after the first request began. */
  totalTimeMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  totalTimeMs: 60_000,
};

export type Sleep = (ms: number) => Promise<void>;

export const defaultSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** HTTP statuses worth retrying: 429 (rate limited) and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Exponential backoff with "equal jitter": half the exponential step is fixed, half random, so waits grow
 * and concurrent clients spread out. `attempt` is the number of the attempt that just failed (1-based).
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(exp / 2 + (exp / 2) * r);
}

/**
 * A Retry-After header value in milliseconds: delay-seconds ("120", fractional accepted) or an HTTP date
 * (a date in the past means 0). Null when absent or unparseable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (v === "") return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // HTTP-date (IMF-fixdate, RFC 850 or asctime); require a letter so bare garbage is not a date.
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

export function resolvePolicy(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  const p = { ...DEFAULT_RETRY_POLICY, ...(overrides ?? {}) };
  return {
    maxAttempts: Math.max(1, Math.floor(p.maxAttempts)),
    baseDelayMs: Math.max(0, p.baseDelayMs),
    maxDelayMs: Math.max(0, p.maxDelayMs),
    totalTimeMs: Math.max(0, p.totalTimeMs),
  };
}
