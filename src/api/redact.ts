// Secret redaction of the API layer: every error message, log line and written file of `api` passes through
// a Redactor built from the credentials in use, so a token or key never reaches stdout, stderr, an error
// object or a file, whatever the service (or a proxy in between) echoes back, and in whatever form
// (upper-cased, cut, spaced out, hex, base64): see src/core/secret-redaction.ts, shared with the terraform
// runner.
import { createSecretRedactor, MIN_SECRET_CHARS } from "../core/secret-redaction.js";
import type { Credentials } from "./auth.js";

export const REDACTED = "[REDACTED]";

export type Redactor = (text: string) => string;

/**
 * Secrets shorter than this are not redacted: no Cloudflare token, key or account e-mail is that short,
 * and replacing a 1–5 character string everywhere would corrupt the results the tool writes (a ruleset
 * saved for `plan --config-json`).
 */
export const MIN_REDACTED_LENGTH = MIN_SECRET_CHARS;

/**
 * Replaces each secret, and any run of 8 or more of its characters, in every spelling an echo produces.
 * `wholeOnly` values (an e-mail address: identifying, not secret) are replaced only whole.
 */
export function createRedactor(secrets: readonly (string | undefined | null)[], wholeOnly: readonly (string | undefined | null)[] = []): Redactor {
  return createSecretRedactor({ secrets, wholeOnly, marker: REDACTED });
}

/** The redactor for a set of Cloudflare credentials: token and key are secrets, the e-mail is replaced whole. */
export function credentialRedactor(creds: Credentials): Redactor {
  return createRedactor([creds.token, creds.key], [creds.email]);
}
