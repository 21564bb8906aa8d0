// Client-side rate limiting for the online commands. The service's documented global limit is 1,200
// requests per 5 minutes per user; the limiter keeps every sliding 5-minute window at or under it, so a
// 300-zone estate never trips the service's own limiter. A 429 with Retry-After pauses every caller of the
// limiter (the service is telling the credential, not one request, to wait). Clock and sleep are injected:
// tests run hours of simulated time in milliseconds.

import type { Sleep } from "../api/retry.js";
import { defaultSleep } from "../api/retry.js";

/** The Cloudflare API's global limit per user (API token or e-mail + key). */
export const SERVICE_REQUEST_LIMIT = 1200;
export const SERVICE_WINDOW_MS = 5 * 60 * 1000;

export interface RateLimiterOptions {
  limit?: number;
  windowMs?: number;
  now?: () => number;
  sleep?: Sleep;
}

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  /** Start times of the grants still inside the window, oldest first. */
  private readonly granted: number[] = [];
  private pausedUntil = 0;
  /** Grants are handed out one at a time, in call order: a chain, not a race between waiters. */
  private queue: Promise<unknown> = Promise.resolve();
  private waitedMs = 0;
  private grants = 0;

  constructor(options: RateLimiterOptions = {}) {
    this.limit = options.limit ?? SERVICE_REQUEST_LIMIT;
    this.windowMs = options.windowMs ?? SERVICE_WINDOW_MS;
    if (!(this.limit >= 1) || !(this.windowMs > 0)) throw new Error("rate limiter: limit and window must be positive");
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Resolves, with the grant's time, when one more request may start; the request counts from that moment. */
  acquire(): Promise<number> {
    const turn = this.queue.then(() => this.waitForSlot());
    // A failed sleep must not wedge the queue for later callers.
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** Stops every grant until `ms` from now (Retry-After); a longer pause already in force wins. */
  pause(ms: number): void {
    if (!(ms > 0)) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  /** Grants still inside the window (ms): what the next process must count too (see `seed`). */
  recent(): number[] {
    const now = this.now();
    return this.granted.filter((t) => t > now - this.windowMs);
  }

  /**
   * Counts an earlier run's grants (a CI rerun right after a run shares the service's window with it).
   * Times in the future or outside the window are ignored.
   */
  seed(times: readonly number[]): void {
    const now = this.now();
    const kept = times.filter((t) => Number.isFinite(t) && t > now - this.windowMs && t <= now);
    this.granted.push(...kept);
    this.granted.sort((a, b) => a - b);
  }

  /** How long callers waited in total, and how many grants were given (for the report's figures). */
  stats(): { grants: number; waitedMs: number } {
    return { grants: this.grants, waitedMs: this.waitedMs };
  }

  private async waitForSlot(): Promise<number> {
    for (;;) {
      const now = this.now();
      while (this.granted.length > 0 && this.granted[0]! <= now - this.windowMs) this.granted.shift();
      let until = this.pausedUntil > now ? this.pausedUntil : now;
      // The window (t - windowMs, t] must hold fewer than `limit` grants before one more is given at t.
      if (this.granted.length >= this.limit) until = Math.max(until, this.granted[this.granted.length - this.limit]! + this.windowMs);
      if (until <= now) {
        this.granted.push(now);
        this.grants++;
        return now;
      }
      this.waitedMs += until - now;
      await this.sleep(until - now);
    }
  }
}

/**
 * Runs `task` over `items` with at most `jobs` running at once; results keep the items' order. A task
 * that throws does not stop the others (every zone of an estate is reported, failed or not): its error is
 * returned in its place.
 */
export async function mapWithConcurrency<T, R>(items: readonly T[], jobs: number, task: (item: T, index: number) => Promise<R>): Promise<({ ok: true; value: R } | { ok: false; error: unknown })[]> {
  const width = Math.max(1, Math.min(Math.floor(jobs) || 1, items.length || 1));
  const results: ({ ok: true; value: R } | { ok: false; error: unknown })[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      try {
        results[i] = { ok: true, value: await task(items[i]!, i) };
      } catch (error) {
        results[i] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
