// What makes the simulated API behave like a busy real one: zones that answer 500 or 429 (with
// Retry-After) a given number of times before working, the service's own rate limit per credential, and
// the request log tests count requests in (per window, per zone, per method).

import { createHash } from "node:crypto";
import type http from "node:http";

export interface ZoneFaults {
  /** The zone's next N requests answer HTTP 500, then it works. */
  serverErrors?: number;
  /** The zone's next `times` requests answer HTTP 429 with `Retry-After: retryAfterSeconds`. */
  rateLimited?: { times: number; retryAfterSeconds: number };
}

export type Fault = { kind: "server-error" } | { kind: "rate-limited"; retryAfterSeconds: number };

export interface RequestRecord {
  /** When the server answered (ms, the server's clock). */
  at: number;
  method: string;
  path: string;
  query: string;
  status: number;
  /** The zone the path names, or null. */
  zoneId: string | null;
}

/** Hands out each zone's faults, one per request, until they are used up. */
export class FaultBook {
  private readonly left = new Map<string, { serverErrors: number; rateLimited: number; retryAfterSeconds: number }>();

  constructor(faults: Record<string, ZoneFaults>) {
    for (const [zone, f] of Object.entries(faults)) {
      this.left.set(zone, { serverErrors: f.serverErrors ?? 0, rateLimited: f.rateLimited?.times ?? 0, retryAfterSeconds: f.rateLimited?.retryAfterSeconds ?? 1 });
    }
  }

  take(zoneId: string | null): Fault | null {
    const f = zoneId === null ? undefined : this.left.get(zoneId);
    if (!f) return null;
    if (f.rateLimited > 0) {
      f.rateLimited--;
      return { kind: "rate-limited", retryAfterSeconds: f.retryAfterSeconds };
    }
    if (f.serverErrors > 0) {
      f.serverErrors--;
      return { kind: "server-error" };
    }
    return null;
  }
}

/** The service's documented global limit, per credential, over a sliding window. */
export class ServiceRateLimit {
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Null when the request is admitted (and counted); else the Retry-After seconds. */
  admit(credential: string, at: number): number | null {
    const times = this.seen.get(credential) ?? [];
    while (times.length > 0 && times[0]! <= at - this.windowMs) times.shift();
    if (times.length >= this.limit) return Math.max(1, Math.ceil((times[0]! + this.windowMs - at) / 1000));
    times.push(at);
    this.seen.set(credential, times);
    return null;
  }
}

/** Which credential a request carries, as a hash (the limiter's key; nothing secret is kept). */
export function credentialOf(headers: http.IncomingHttpHeaders): string {
  const auth = `${headers.authorization ?? ""}\n${headers["x-auth-email"] ?? ""}\n${headers["x-auth-key"] ?? ""}`;
  return createHash("sha256").update(auth).digest("hex");
}

export function zoneOfPath(pathname: string): string | null {
  const m = /\/zones\/([^/]+)/.exec(pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}

/** The most requests any window of `windowMs` holds (sliding over every request time). */
export function maxInAnyWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
