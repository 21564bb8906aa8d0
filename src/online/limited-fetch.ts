// The fetch the online commands give the API client: every request (retries included) first takes a slot
// from the rate limiter, and a 429's Retry-After pauses the limiter for everyone, not only for the request
// that met it. The client keeps its own retry loop; this layer only decides when a request may leave.

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
    await limiter.acquire();
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
