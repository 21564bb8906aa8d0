// The HTTP client: one request = URL + auth headers + JSON body, sent with Node's fetch under a per-request
// timeout, retried on 429/5xx within a bounded budget, and its envelope ({result, success, errors,
// messages}) turned into a typed result or an ApiError. Every message it produces is redacted.

import { credentialSecrets, readCredentials, resolveAuth, type AuthScheme, type Credentials, type Env } from "./auth.js";
import { ApiConfigError, ApiError, type ApiErrorKind, type ApiMessage } from "./errors.js";
import { credentialRedactor, type Redactor } from "./redact.js";
import {
  backoffDelay,
  defaultSleep,
  isRetryableStatus,
  parseRetryAfter,
  resolvePolicy,
  type RetryPolicy,
  type Sleep,
} from "./retry.js";

export const DEFAULT_BASE_URL = "https://api.cloudflare.com/client/v4";
export const DEFAULT_TIMEOUT_MS = 30_000;
const USER_AGENT = "cf-waf-migrate";

export type HttpMethod = "GET" | "PUT" | "PATCH" | "POST" | "DELETE";

export interface ApiRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with "/" (segments already encoded). */
  path: string;
  query?: Record<string, string>;
  /** Sent as JSON with Content-Type: application/json. */
  body?: unknown;
  /** Scheme to use when both are configured (default bearer); the other one is used when it is the only one. */
  auth?: AuthScheme;
  /**
   * What to retry: `all` (default) retries 429, 5xx and network failures; `rate-limit-only` retries only 429,
   * which the service sends before doing anything, for requests that must not be repeated blindly.
   */
  retry?: "all" | "rate-limit-only";
  /**
   * `required` (default): a 2xx response must be the envelope. `optional`: the spec does not show the
   * response body, so an empty body (result null) or JSON that is not an envelope (returned as is) is accepted.
   */
  envelope?: "required" | "optional";
}

export interface ApiResponse<T> {
  status: number;
  result: T;
  messages: ApiMessage[];
  /** The parsed body: the envelope, or the raw JSON for an `optional` request without one. */
  raw: unknown;
  attempts: number;
}

/** A request as it would go on the wire, minus the auth headers (for dry runs and logs). */
export interface RequestPreview {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface ApiClientOptions {
  /** Where credentials are read from (CLOUDFLARE_API_TOKEN, CLOUDFLARE_EMAIL, CLOUDFLARE_API_KEY). */
  env: Env;
  /** Default https://api.cloudflare.com/client/v4. Plain http is accepted only for loopback hosts. */
  baseUrl?: string;
  /** Per-request timeout, covering the response body too. Default 30 000 ms. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
  /** Progress lines (retries); already redacted. */
  log?: (line: string) => void;
  /**
   * Waits for a rate limiter's slot before each attempt. The wait is not part of the request's timeout
   * nor of the retry budget: a request queued behind 1,200 others has not been answered late.
   */
  acquire?: () => Promise<unknown>;
}

interface RawResponse {
  status: number;
  retryAfter: string | null;
  text: string;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  /** Removes the configured secrets from a text. */
  readonly redact: Redactor;
  private readonly credentials: Credentials;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly logFn: (line: string) => void;
  private readonly acquire: (() => Promise<unknown>) | undefined;

  constructor(options: ApiClientOptions) {
    this.credentials = readCredentials(options.env);
    this.redact = credentialRedactor(this.credentials);
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new ApiConfigError(`timeout must be a positive number of milliseconds, got ${timeoutMs}`);
    this.timeoutMs = timeoutMs;
    this.policy = resolvePolicy(options.retry);
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.acquire = options.acquire;
    const log = options.log;
    this.logFn = (line) => log?.(this.redact(line));
  }

  /** Full URL of a path and query below the base URL. */
  url(path: string, query?: Record<string, string>): string {
    const qs = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
    return `${this.baseUrl}${path}${qs}`;
  }

  /** The request exactly as `request` would send it, without the auth headers. */
  preview(req: ApiRequest): RequestPreview {
    const preview: RequestPreview = { method: req.method, url: this.url(req.path, req.query), headers: this.baseHeaders(req) };
    if (req.body !== undefined) preview.body = req.body;
    return preview;
  }

  async request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    const auth = resolveAuth(this.credentials, req.auth ?? "bearer");
    const url = this.url(req.path, req.query);
    const label = `${req.method} ${pathOf(req)}`;
    const headers = { ...this.baseHeaders(req), ...auth.headers };
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const mode = req.retry ?? "all";
    let started = this.now();

    for (let attempt = 1; ; attempt++) {
      if (this.acquire) {
        const queued = this.now();
        await this.acquire();
        started += this.now() - queued;
      }
      let res: RawResponse;
      try {
        res = await this.send(req, url, headers, body);
      } catch (e) {
        const err = e as ApiError;
        if (err.kind === "network" && mode === "all") {
          const delay = backoffDelay(attempt, this.policy, this.random);
          if (this.canRetry(attempt, started, delay)) {
            this.logFn(`${label}: ${err.message}; retrying in ${seconds(delay)} s (attempt ${attempt + 1} of ${this.policy.maxAttempts})`);
            await this.sleep(delay);
            continue;
          }
          throw new ApiError(`${err.message} (gave up after ${attempt} attempt${plural(attempt)})`, { ...detailsOf(err), attempts: attempt });
        }
        throw err;
      }

      if (isRetryableStatus(res.status) && (res.status === 429 || mode === "all")) {
        const retryAfter = parseRetryAfter(res.retryAfter, this.now());
        const delay = retryAfter ?? backoffDelay(attempt, this.policy, this.random);
        if (this.canRetry(attempt, started, delay)) {
          const why = res.status === 429 ? "the service is rate limiting (HTTP 429)" : `HTTP ${res.status} (server error)`;
          const source = retryAfter !== null ? " as Retry-After asks" : "";
          this.logFn(`${label}: ${why}; retrying in ${seconds(delay)} s${source} (attempt ${attempt + 1} of ${this.policy.maxAttempts})`);
          await this.sleep(delay);
          continue;
        }
        throw this.exhausted(req, res, attempt, started, retryAfter);
      }
      return this.interpret<T>(req, res, attempt);
    }
  }

  private baseHeaders(req: ApiRequest): Record<string, string> {
    const headers: Record<string, string> = { Accept: "application/json", "User-Agent": USER_AGENT };
    if (req.body !== undefined) headers["Content-Type"] = "application/json";
    return headers;
  }

  private canRetry(attempt: number, started: number, delay: number): boolean {
    if (attempt >= this.policy.maxAttempts) return false;
    return this.now() - started + delay <= this.policy.totalTimeMs;
  }

  /** One HTTP exchange, body included, under the timeout. Throws ApiError (timeout, network). */
  private async send(req: ApiRequest, url: string, headers: Record<string, string>, body: string | undefined): Promise<RawResponse> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const init: RequestInit = { method: req.method, headers, signal: controller.signal };
    if (body !== undefined) init.body = body;
    try {
      const res = await this.fetchFn(url, init);
      const text = await res.text();
      return { status: res.status, retryAfter: res.headers.get("retry-after"), text };
    } catch (e) {
      const label = `${req.method} ${pathOf(req)}`;
      if (timedOut) {
        throw new ApiError(this.redact(`${label}: no complete response from the Cloudflare API within ${seconds(this.timeoutMs)} s (request timed out)`), {
          kind: "timeout",
          status: null,
          method: req.method,
          path: pathOf(req),
        });
      }
      throw new ApiError(this.redact(`${label}: could not reach ${hostOf(this.baseUrl)}: ${networkReason(e)}`), {
        kind: "network",
        status: null,
        method: req.method,
        path: pathOf(req),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private interpret<T>(req: ApiRequest, res: RawResponse, attempts: number): ApiResponse<T> {
    const label = `${req.method} ${pathOf(req)}`;
    const ok = res.status >= 200 && res.status <= 299;
    let json: unknown = undefined;
    if (res.text.trim() !== "") {
      try {
        json = JSON.parse(res.text);
      } catch {
        throw this.error("malformed", res.status, req, attempts, `${label}: HTTP ${res.status} with a body that is not valid JSON (${res.text.length} characters, not shown)`);
      }
    }
    const envelope = asEnvelope(json);
    if (!ok || (envelope !== null && !envelope.success)) {
      const kind: ApiErrorKind = res.status === 429 ? "rate_limited" : res.status >= 500 ? "server" : "http";
      let detail: string;
      if (envelope !== null && envelope.errors.length > 0) detail = formatMessages(envelope.errors);
      else if (json === undefined) detail = "empty body";
      else if (envelope === null) detail = `a body that is not a Cloudflare API envelope (${res.text.length} characters, not shown)`;
      else detail = "the service gave no error details";
      let message = `${label} failed: HTTP ${res.status}${envelope !== null && ok ? " with success=false" : ""}: ${detail}`;
      if (res.status === 401 || res.status === 403) {
        message += " (check CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY, and the permissions they carry)";
      }
      throw this.error(kind, res.status, req, attempts, message, envelope);
    }
    if (envelope !== null) {
      return { status: res.status, result: envelope.result as T, messages: this.redactAll(envelope.messages), raw: json, attempts };
    }
    if (req.envelope === "optional") {
      return { status: res.status, result: (json ?? null) as T, messages: [], raw: json ?? null, attempts };
    }
    const what = json === undefined ? "an empty body" : `JSON that is not a Cloudflare API envelope (no boolean "success"; ${res.text.length} characters, not shown)`;
    throw this.error("malformed", res.status, req, attempts, `${label}: HTTP ${res.status} with ${what}`);
  }

  private exhausted(req: ApiRequest, res: RawResponse, attempts: number, started: number, retryAfter: number | null): ApiError {
    const label = `${req.method} ${pathOf(req)}`;
    const elapsed = this.now() - started;
    const envelope = safeEnvelope(res.text);
    const details = envelope !== null && envelope.errors.length > 0 ? `; service said: ${formatMessages(envelope.errors)}` : "";
    const tries = `gave up after ${attempts} attempt${plural(attempts)} in ${seconds(elapsed)} s`;
    if (res.status === 429) {
      const remaining = Math.max(0, this.policy.totalTimeMs - elapsed);
      const wait =
        retryAfter !== null && retryAfter > remaining && attempts < this.policy.maxAttempts
          ? `; it asked to wait ${seconds(retryAfter)} s (Retry-After), more than the ${seconds(remaining)} s left of the ${seconds(this.policy.totalTimeMs)} s retry budget`
          : "";
      return this.error(
        "rate_limited",
        429,
        req,
        attempts,
        `${label}: the Cloudflare API is rate limiting this client (HTTP 429); ${tries}${wait}${details}. Wait a few minutes and run the command again`,
        envelope,
      );
    }
    const body = details === "" && res.text.trim() !== "" && envelope === null ? `; the body is not a Cloudflare API envelope (${res.text.length} characters, not shown)` : "";
    return this.error("server", res.status, req, attempts, `${label}: the Cloudflare API kept failing with HTTP ${res.status} (server error); ${tries}${details}${body}`, envelope);
  }

  private error(kind: ApiErrorKind, status: number | null, req: ApiRequest, attempts: number, message: string, envelope?: Envelope | null): ApiError {
    return new ApiError(this.redact(message), {
      kind,
      status,
      method: req.method,
      path: pathOf(req),
      attempts,
      errors: this.redactAll(envelope?.errors ?? []),
      messages: this.redactAll(envelope?.messages ?? []),
    });
  }

  private redactAll(list: ApiMessage[]): ApiMessage[] {
    // Capped after redaction, so a cut cannot leave half a credential unrecognised.
    return list.slice(0, MAX_MESSAGES).map((m) => ({ code: m.code, message: capped(this.redact(m.message)) }));
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  return new ApiClient(options);
}

/**
 * Validates a base URL and strips a trailing slash. Requires https, except for loopback hosts (local test
 * servers), so credentials never travel in clear text; refuses user:password@ (fetch would reject it, and
 * printing it would leak it).
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ApiConfigError(`base URL is not a valid absolute URL: ${JSON.stringify(input.slice(0, 200))}`);
  }
  if (url.username !== "" || url.password !== "") throw new ApiConfigError("base URL must not contain a user name or password; credentials come from the environment");
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new ApiConfigError(`base URL must use https (plain http only for 127.0.0.1, ::1 or localhost): ${url.origin}`);
  }
  if (url.search !== "" || url.hash !== "") throw new ApiConfigError(`base URL must not have a query or fragment: ${url.origin}${url.pathname}`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

// ---- helpers ----------------------------------------------------------------------------------------

interface Envelope {
  success: boolean;
  result: unknown;
  errors: ApiMessage[];
  messages: ApiMessage[];
}

function asEnvelope(json: unknown): Envelope | null {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  if (typeof o.success !== "boolean") return null;
  return { success: o.success, result: o.result ?? null, errors: toMessages(o.errors), messages: toMessages(o.messages) };
}

function safeEnvelope(text: string): Envelope | null {
  try {
    return asEnvelope(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Envelope entries are `{code, message}`; tolerate strings and odd shapes rather than failing on them. */
function toMessages(value: unknown): ApiMessage[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry): ApiMessage => {
    if (typeof entry === "string") return { code: null, message: entry };
    if (entry !== null && typeof entry === "object") {
      const e = entry as Record<string, unknown>;
      const code = typeof e.code === "number" ? e.code : typeof e.code === "string" && /^\d+$/.test(e.code) ? Number(e.code) : null;
      const message = typeof e.message === "string" ? e.message : JSON.stringify(entry);
      return { code, message };
    }
    return { code: null, message: String(entry) };
  });
}

/**
 * The envelope's entries as one line: code and message only, each message capped, at most MAX_MESSAGES.
 * Nothing else of an error body is ever printed: a proxy that echoes request headers puts credentials there.
 */
export function formatMessages(list: ApiMessage[]): string {
  const shown = list.slice(0, MAX_MESSAGES).map((m) => (m.code === null ? capped(m.message) : `[${m.code}] ${capped(m.message)}`));
  if (list.length > MAX_MESSAGES) shown.push(`and ${list.length - MAX_MESSAGES} more`);
  return shown.join("; ");
}

/** Longest envelope message printed, in characters. */
export const MAX_MESSAGE_CHARS = 300;
/** Most envelope entries printed. */
export const MAX_MESSAGES = 10;

function capped(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}… (${message.length} characters)` : message;
}

function pathOf(req: ApiRequest): string {
  const qs = req.query && Object.keys(req.query).length > 0 ? `?${new URLSearchParams(req.query).toString()}` : "";
  return `${req.path}${qs}`;
}

function detailsOf(err: ApiError) {
  return { kind: err.kind, status: err.status, method: err.method, path: err.path, errors: err.errors, messages: err.messages };
}


function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(s < 10 ? 2 : 1).replace(/\.?0+$/, "");
}

function plural(n: number): string {
  return n === 1 ? "" : "s";
}

function hostOf(baseUrl: string): string {
  return new URL(baseUrl).host;
}

function networkReason(e: unknown): string {
  const err = e as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const cause = err?.cause;
  if (cause && typeof cause.code === "string") return cause.code + (typeof cause.message === "string" ? ` (${cause.message})` : "");
  if (cause && typeof cause.message === "string") return cause.message;
  return typeof err?.message === "string" ? err.message : String(e);
}
