// Credentials come from an environment object (never from flags) and become request headers.
// Spec part 5: bearer token for the migration operations, e-mail + key for the custom hostname edit.
// Both schemes are accepted for every call; when both are configured the scheme the spec names wins.

import { CredentialsError } from "./errors.js";

export type AuthScheme = "bearer" | "email_key";

export const ENV_TOKEN = "CLOUDFLARE_API_TOKEN";
export const ENV_EMAIL = "CLOUDFLARE_EMAIL";
export const ENV_KEY = "CLOUDFLARE_API_KEY";

export type Env = Readonly<Record<string, string | undefined>>;

export interface Credentials {
  token?: string;
  email?: string;
  key?: string;
}

export interface ResolvedAuth {
  scheme: AuthScheme;
  headers: Record<string, string>;
}

/** Reads the three variables; empty or blank values count as unset; surrounding whitespace is dropped. */
export function readCredentials(env: Env): Credentials {
  const pick = (name: string): string | undefined => {
    const value = env[name];
    if (typeof value !== "string") return undefined;
    const trimmed = value.trim();
    return trimmed === "" ? undefined : trimmed;
  };
  const creds: Credentials = {};
  const token = pick(ENV_TOKEN);
  const email = pick(ENV_EMAIL);
  const key = pick(ENV_KEY);
  if (token !== undefined) creds.token = token;
  if (email !== undefined) creds.email = email;
  if (key !== undefined) creds.key = key;
  return creds;
}

/** Every secret value, for the redactor. The e-mail address counts: it identifies the account. */
export function credentialSecrets(creds: Credentials): string[] {
  return [creds.token, creds.key, creds.email].filter((v): v is string => typeof v === "string");
}

/** The schemes these credentials can serve. */
export function availableSchemes(creds: Credentials): AuthScheme[] {
  const out: AuthScheme[] = [];
  if (creds.token !== undefined) out.push("bearer");
  if (creds.email !== undefined && creds.key !== undefined) out.push("email_key");
  return out;
}

/**
 * Headers for one request: the preferred scheme when it is configured, else the other one.
 * Throws CredentialsError naming the missing variables (and never printing a value).
 */
export function resolveAuth(creds: Credentials, prefer: AuthScheme): ResolvedAuth {
  const available = availableSchemes(creds);
  const scheme = available.includes(prefer) ? prefer : available[0];
  if (scheme === undefined) throw new CredentialsError(missingMessage(creds));
  if (scheme === "bearer") {
    const token = creds.token as string;
    assertHeaderSafe(token, ENV_TOKEN);
    return { scheme, headers: { Authorization: `Bearer ${token}` } };
  }
  const email = creds.email as string;
  const key = creds.key as string;
  assertHeaderSafe(email, ENV_EMAIL);
  assertHeaderSafe(key, ENV_KEY);
  return { scheme, headers: { "X-Auth-Email": email, "X-Auth-Key": key } };
}

function missingMessage(creds: Credentials): string {
  const base = `no Cloudflare API credentials: set ${ENV_TOKEN}, or both ${ENV_EMAIL} and ${ENV_KEY}`;
  if (creds.email !== undefined && creds.key === undefined) return `${base} (${ENV_EMAIL} is set but ${ENV_KEY} is not)`;
  if (creds.key !== undefined && creds.email === undefined) return `${base} (${ENV_KEY} is set but ${ENV_EMAIL} is not)`;
  return base;
}

/**
 * fetch() rejects header values with control or non-Latin-1 characters and quotes the whole value in its
 * error message; check first so the message can name the variable instead of echoing the secret.
 */
function assertHeaderSafe(value: string, name: string): void {
  // Visible ASCII plus space and tab: what a token, key or e-mail address can contain.
  if (!/^[\x20-\x7e\t]+$/.test(value)) {
    throw new CredentialsError(`${name} contains characters that cannot be sent in an HTTP header (control or non-ASCII characters); check how it was set`);
  }
}
