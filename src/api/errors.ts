// Errors of the API layer. Both carry messages that have already been redacted.

/** One entry of the envelope's `errors` or `messages` array. */
export interface ApiMessage {
  /** The service's numeric code; null when the entry has none. */
  code: number | null;
  message: string;
}

/**
 * What went wrong:
 * - `http`: the service answered with an error status or an envelope with `success: false`;
 * - `rate_limited`: HTTP 429 until the retry budget ran out;
 * - `server`: HTTP 5xx until the retry budget ran out;
 * - `timeout`: no complete response within the per-request timeout;
 * - `network`: the request could not be sent or the connection broke;
 * - `malformed`: the body is not JSON, or not the envelope/result shape the operation promises.
 */
export type ApiErrorKind = "http" | "rate_limited" | "server" | "timeout" | "network" | "malformed";

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  /** HTTP status of the last response; null when there was none (timeout, network). */
  status: number | null;
  method: string;
  /** Path and query, without the base URL. */
  path: string;
  errors?: ApiMessage[];
  messages?: ApiMessage[];
  attempts?: number;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly method: string;
  readonly path: string;
  /** The service's error entries (codes and messages), redacted. */
  readonly errors: ApiMessage[];
  /** The service's informational entries, redacted. */
  readonly messages: ApiMessage[];
  /** How many requests were sent before giving up. */
  readonly attempts: number;

  constructor(message: string, details: ApiErrorDetails) {
    super(message);
    this.name = "ApiError";
    this.kind = details.kind;
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.errors = details.errors ?? [];
    this.messages = details.messages ?? [];
    this.attempts = details.attempts ?? 1;
  }
}

/** The client cannot be used as configured (bad base URL, timeout, ...). Nothing was sent. */
export class ApiConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ApiConfigError";
  }
}

/** No usable credentials in the environment for a request. The message names the variables, never values. */
export class CredentialsError extends ApiConfigError {
  constructor(message: string) {
    super(message);
    this.name = "CredentialsError";
  }
}
