// The simulated API in-process: a `fetch` that hands each request straight to the service's handler,
// without a socket. Tests that run hours of simulated time (rate limits, Retry-After) use it with an
// injected clock; everything else goes through the HTTP server.

import type http from "node:http";
import type { ApiHandler } from "./server.js";

export function simulatedFetch(api: ApiHandler, origin = "http://127.0.0.1"): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (`${url.protocol}//${url.host}` !== new URL(origin).origin) throw new TypeError(`fetch failed: the simulated API serves ${origin} only`);
    const headers: http.IncomingHttpHeaders = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const body = typeof init?.body === "string" ? init.body : "";
    // A turn of the event loop, as a socket would take: concurrency stays concurrency.
    await Promise.resolve();
    const reply = api.handle({ method: init?.method ?? "GET", url: `${url.pathname}${url.search}`, headers, body });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  }) as typeof fetch;
}
