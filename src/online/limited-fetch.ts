// The fetch the online commands give the API client: it counts what goes to the network, and a 429's
// Retry-After pauses the rate limiter for everyone, not only for the request that met it. The slot itself
// is taken by the client (ApiClientOptions.acquire) before its per-request timeout starts.

import { parseRetryAfter } from "../api/retry.js";
import type { RateLimiter } from "./limiter.js";

export interface LimitedFetch {
  fetch: typeof fetch;
  /** Requests that went to the network (each retry counts). */
  sent(): number;
}

export function limitedFetch(inner: typeof fetch, limiter: RateLimiter, now: () => number = Date.now): LimitedFetch {
  let sent = 0;
  const wrapped = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    sent++;
    const res = await inner(input, init);
    if (res.status === 429) {
      const wait = parseRetryAfter(res.headers.get("retry-after"), now());
      if (wait !== null) limiter.pause(wait);
    }
    return res;
  }) as typeof fetch;
  return { fetch: wrapped, sent: () => sent };
}
