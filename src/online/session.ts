// One online session: the credentials (from the environment only), the base URL, the rate limiter shared
// by every request of the run, the bounded concurrency, and the response cache. `scan`, `plan`, `gate`
// and `apply` open one with --online; nothing here reads flags (src/cli/online-options.ts does).

import { baseUrlFromEnv } from "../api/commands/run.js";
import { availableSchemes, readCredentials, resolveAuth, type Env } from "../api/auth.js";
import { createApiClient, DEFAULT_BASE_URL, normalizeBaseUrl, type ApiClient } from "../api/client.js";
import { ApiConfigError, CredentialsError } from "../api/errors.js";
import { defaultSleep, type RetryPolicy, type Sleep } from "../api/retry.js";
import { parseDuration } from "../core/duration.js";
import { credentialFingerprint, DEFAULT_CACHE_DIR, DEFAULT_MAX_AGE, ResponseCache } from "./cache.js";
import { limitedFetch } from "./limited-fetch.js";
import { RateLimiter, SERVICE_REQUEST_LIMIT, SERVICE_WINDOW_MS } from "./limiter.js";
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../terraform/edit/fs-atomic.js";

export const DEFAULT_JOBS = 4;

export interface OnlineSettings {
  baseUrl?: string;
  jobs?: number;
  cacheDir?: string;
  /** `15m`, `2h`, `90s`, `0` (no cache reads). */
  maxAge?: string;
}

export interface OnlineDeps {
  env: Env;
  cwd: string;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: Sleep;
  /** Progress lines (retries, totals); already redacted. */
  log?: (line: string) => void;
  retry?: Partial<RetryPolicy>;
  /** The service's limit; tests lower it to see the limiter work. */
  limit?: { requests: number; windowMs: number };
}

export interface OnlineSession {
  client: ApiClient;
  cache: ResponseCache;
  limiter: RateLimiter;
  jobs: number;
  baseUrl: string;
  now: () => number;
  /** Requests that went to the network so far (retries included). */
  sent(): number;
  log: (line: string) => void;
  /** Keeps this run's recent request times for the next run's limiter (best effort). */
  saveWindow(): Promise<void>;
}

/** Throws ApiConfigError (one line, nothing sent) for bad settings or missing credentials. */
export function openOnlineSession(settings: OnlineSettings, deps: OnlineDeps): OnlineSession {
  const creds = readCredentials(deps.env);
  if (availableSchemes(creds).length === 0) {
    // resolveAuth names the variables to set (never a value).
    resolveAuth(creds, "bearer");
    throw new CredentialsError("no Cloudflare API credentials");
  }
  const jobs = settings.jobs ?? DEFAULT_JOBS;
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) throw new ApiConfigError(`--jobs must be a whole number from 1 to 64, got ${String(settings.jobs)}`);
  const maxAgeText = settings.maxAge ?? DEFAULT_MAX_AGE;
  const maxAgeMs = parseDuration(maxAgeText);
  if (maxAgeMs === null) throw new ApiConfigError(`--max-age ${JSON.stringify(maxAgeText)}: expected a duration such as 15m, 2h, 90s or 0`);
  const baseUrl = settings.baseUrl !== undefined ? normalizeBaseUrl(settings.baseUrl) : (baseUrlFromEnv(deps.env) ?? DEFAULT_BASE_URL);

  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? defaultSleep;
  const limiter = new RateLimiter({ limit: deps.limit?.requests ?? SERVICE_REQUEST_LIMIT, windowMs: deps.limit?.windowMs ?? SERVICE_WINDOW_MS, now, sleep });
  const limited = limitedFetch(deps.fetch ?? globalThis.fetch, limiter, now);
  const log = deps.log ?? (() => undefined);
  const client = createApiClient({ env: deps.env, baseUrl, fetch: limited.fetch, acquire: () => limiter.acquire(), now, sleep, log, ...(deps.retry ? { retry: deps.retry } : {}) });
  const fingerprint = credentialFingerprint(resolveAuth(creds, "bearer").headers);
  const cacheDir = path.resolve(deps.cwd, settings.cacheDir ?? DEFAULT_CACHE_DIR);
  const cache = new ResponseCache(cacheDir, maxAgeMs, fingerprint, client.redact, now);
  // The service counts per credential across processes: a rerun starts from the last run's window.
  const windowFile = path.join(cacheDir, `window-${fingerprint.slice(0, 16)}.json`);
  limiter.seed(readWindow(windowFile));
  return {
    client,
    cache,
    limiter,
    jobs,
    baseUrl: client.baseUrl,
    now,
    sent: limited.sent,
    log: (line) => log(client.redact(line)),
    saveWindow: async () => {
      try {
        await mkdir(cacheDir, { recursive: true });
        await writeFileAtomic(windowFile, `${JSON.stringify({ grants: limiter.recent() })}\n`);
      } catch {
        // Only an optimisation: the service's own 429 and Retry-After still protect the next run.
      }
    },
  };
}

/** Request times (ms) an earlier run left; none when the file is absent or unreadable. */
function readWindow(file: string): number[] {
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { grants?: unknown };
    return Array.isArray(doc.grants) ? doc.grants.filter((t): t is number => typeof t === "number") : [];
  } catch {
    return [];
  }
}
