// POSIX shell quoting. Pure: no I/O.

/**
 * Quote one word for a POSIX shell (sh, bash, zsh, dash): the result is always wrapped in single quotes,
 * and each embedded `'` becomes `'\''` (close, escaped quote, reopen). Nothing inside single quotes is
 * special to the shell, so `$`, backslashes, `"`, spaces, newlines and `[`/`]` survive as written.
 *
 * `shellQuote('module.waf["a"].cloudflare_waf_group.g')` → `'module.waf["a"].cloudflare_waf_group.g'`
 */
export function shellQuote(s: string): string {
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

/** Quote every word and join them with single spaces. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
