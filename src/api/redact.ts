// Secret redaction: every error message and log line of the API layer passes through a Redactor built from
// the credential values in use, so a token, key or e-mail address never reaches stdout, stderr or an
// error object, whatever the service (or a proxy in between) echoes back.

export const REDACTED = "[REDACTED]";

export type Redactor = (text: string) => string;

/**
 * Secrets shorter than this are not redacted: no Cloudflare token, key or account e-mail is that short,
 * and replacing a 1–5 character string everywhere would corrupt the results the tool writes (a ruleset
 * saved for `plan --config-json`).
 */
export const MIN_REDACTED_LENGTH = 6;

/**
 * A function that replaces every occurrence of each secret in a text, including its URL-encoded and
 * JSON-escaped spellings. Longer secrets are replaced first so that a secret containing another one is
 * removed whole.
 */
export function createRedactor(secrets: readonly (string | undefined | null)[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length < MIN_REDACTED_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  const ordered = [...forms].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text: string) => {
    let out = text;
    for (const form of ordered) out = out.split(form).join(REDACTED);
    return out;
  };
}
