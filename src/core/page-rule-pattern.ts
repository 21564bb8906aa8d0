// Translate a Page Rule target URL pattern (`targets[0].constraint.value`) into a Ruleset Engine expression
// for a skip rule. Pure: no I/O.
//
// The expression is built per URL component (`ssl`, `http.host`, `cf.edge.server_port`,
// `http.request.uri.path` / `http.request.uri`) and never as one `http.request.full_uri wildcard`: in a
// whole-URL wildcard a `*` can absorb the host or the query string, and a skip rule built that way would
// switch the WAF off for other hosts (reference/page-rule-patterns.md, fact 29). Where Page Rules behaviour
// is undocumented we take the narrower reading, because a skip rule turns security off.
//
// Every step is one pass over the target (no backtracking regex, no rescan per character): the target is
// user input of any length, and `WorkMeter` lets the property tests check that the work stays linear.
import { domainToASCII } from "node:url";

export type PageRuleScheme = "http" | "https";

/** The components of a Page Rule target, after the normalisations Cloudflare applies on save. */
export interface ParsedTarget {
  /** `http` / `https`; null when the target has no scheme or a wildcard scheme covering both. */
  scheme: PageRuleScheme | null;
  /** Host as written (case kept, `**` collapsed); may contain `*`. Exactly `*` for a host-less target. */
  host: string;
  /** Explicit port; null when absent (a Page Rule without a port matches every port). */
  port: number | null;
  /** Always starts with `/`; `/` when the target has no path (Cloudflare saves `example.com` as `example.com/`). */
  path: string;
  /** Text after the first `?`; null when the target has no `?` (then the query string never takes part). */
  query: string | null;
  /** True when the host is just `*`, so there is no host clause and the path-contains reading applies. */
  hostless: boolean;
  /** Notes about normalisations applied while parsing (collapsed `**`, added `/`, wildcard scheme). */
  notes: string[];
}

export interface PageRuleExpression {
  expression: string;
  /** False for the approximations (port, query, host-less) of the reference's translation table. */
  exact: boolean;
  notes: string[];
}

const MAX_PORT = 65535;

/**
 * A target the translator cannot express: a property of the user's input, reported as a finding on the
 * Page Rule (PAGE_RULE_TARGET_UNTRANSLATABLE), never as an internal error. `hint` says what to write instead.
 */
export class UntranslatableTargetError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = "UntranslatableTargetError";
  }
}

/** Counts the characters the translator visits; tests use it to check that the work is linear in the input. */
export interface WorkMeter {
  steps: number;
}

export interface TranslateOptions {
  /**
   * The zone's domain name when known: Cloudflare inserts a `/` after every occurrence of it on save
   * (fact 5), so `example.com*` is stored as `example.com/*`. Without it that `*` stays in the host.
   */
  zoneName?: string | null;
  meter?: WorkMeter;
}

/** Parses a Page Rule target into its components; throws UntranslatableTargetError for targets it cannot express. */
export function parsePageRuleTarget(target: string, opts: TranslateOptions = {}): ParsedTarget {
  const meter = opts.meter ?? { steps: 0 };
  const notes: string[] = [];
  const trimmed = checkedTrim(target, meter);
  const collapsed = collapseStars(trimmed, meter);
  if (collapsed !== trimmed) {
    // `**` means the same as `*` in a Page Rule but is invalid in a wildcard literal (fact 16/17).
    notes.push("Runs of `*` were collapsed to a single `*` (`**` is invalid in a wildcard literal).");
  }
  const saved = opts.zoneName ? slashAfterZoneName(collapsed, opts.zoneName, meter) : collapsed;

  const { scheme, rest } = splitScheme(saved, notes, meter);
  const authorityEnd = firstIndexOf(rest, ["/", "?"], meter);
  const authority = rest.slice(0, authorityEnd);
  const { host, port } = splitAuthority(authority, target, meter);
  const { path, query } = splitPathAndQuery(rest.slice(authorityEnd), notes);
  if (!opts.zoneName && authorityEnd === rest.length && host.length > 1 && host.slice(1).includes("*")) {
    // `example.com*` is saved as `example.com/*` when the zone is example.com: the `*` would cover every
    // path. Without the zone's name we keep the narrower reading (the `*` stays in the host, path `/`).
    notes.push(
      "The host has a `*` and the target no path: Cloudflare inserts `/` after the zone name on save, and the " +
        "zone's name is not known here, so the `*` is kept inside the host and only the path `/` is matched " +
        "(narrower than the Page Rule if the `*` follows the zone name).",
    );
  }

  return { scheme, host, port, path, query, hostless: host === "*", notes };
}

/** Builds the skip-rule expression for a Page Rule target (see reference/page-rule-patterns.md, section 5). */
export function pageRuleTargetToExpression(target: string, opts: TranslateOptions = {}): PageRuleExpression {
  const meter = opts.meter ?? { steps: 0 };
  const parsed = parsePageRuleTarget(target, { ...opts, meter });
  const clauses: string[] = [];
  const notes = [...parsed.notes];

  const schemeClause = schemeToClause(parsed.scheme);
  if (schemeClause !== null) clauses.push(schemeClause);
  if (parsed.port !== null) {
    clauses.push(`cf.edge.server_port eq ${parsed.port}`);
    notes.push(
      `Port ${parsed.port}: whether http.host carries ":${parsed.port}" for non-standard ports is unverified, ` +
        "so both host forms are accepted; check against live traffic or Cloudflare Trace.",
    );
  }
  if (parsed.hostless) {
    notes.push(
      "Host-less target: the leading `*` is read as swallowing scheme, host and the start of the path " +
        "(path-contains reading); host-less Page Rules need Cloudflare for SaaS.",
    );
  } else {
    clauses.push(hostClause(parsed.host, parsed.port, meter));
  }
  if (parsed.query !== null) {
    notes.push(
      "The target has a query part: matched on http.request.uri (path + \"?\" + query); Page Rules' query " +
        "semantics (parameter order, how far a `*` reaches) are barely documented.",
    );
  }
  const pathClause = pathOrUriClause(parsed, meter);
  if (pathClause !== null) clauses.push(pathClause);

  const hostStarUnplaced = notes.some((n) => n.startsWith("The host has a `*` and the target no path"));
  const exact = parsed.port === null && parsed.query === null && !parsed.hostless && !hostStarUnplaced;
  return { expression: clauses.join(" and "), exact, notes };
}

// ---- parsing helpers -----------------------------------------------------------------------------------

/** Trims surrounding whitespace (copy-paste artefacts) and rejects targets that can't be a URL pattern. */
function checkedTrim(target: string, meter: WorkMeter): string {
  meter.steps += target.length;
  const trimmed = target.trim();
  if (trimmed === "") {
    throw new UntranslatableTargetError("the target is empty: there is no URL pattern to translate", "set the Page Rule's target URL pattern");
  }
  // A URL never contains raw whitespace or control characters; guessing what was meant would be unsafe.
  meter.steps += trimmed.length;
  const bad = /[\s\u0000-\u001f\u007f]/.exec(trimmed);
  if (bad !== null) {
    throw new UntranslatableTargetError(
      `the target contains ${bad[0] === " " ? "a space" : `the character U+${bad[0].charCodeAt(0).toString(16).padStart(4, "0")}`} at position ${bad.index + 1}: a URL pattern never contains whitespace or control characters`,
      "remove it, or write a space the URL really contains as %20",
    );
  }
  return trimmed;
}

/** Collapses every run of `*` to a single `*`, in one pass. */
function collapseStars(value: string, meter: WorkMeter): string {
  meter.steps += value.length;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    if (value[i] === "*" && value[i - 1] === "*") continue;
    out += value[i];
  }
  return out;
}

/**
 * Cloudflare saves a Page Rule with a `/` after every occurrence of the zone name (fact 5): `example.com*`
 * becomes `example.com/*`, `example.com/a/example.com` becomes `example.com/a/example.com/`. An occurrence
 * already followed by `/`, `?` or a port (`:`) is left alone: there the path starts anyway.
 */
function slashAfterZoneName(value: string, zoneName: string, meter: WorkMeter): string {
  const needle = asciiLower(zoneName.replace(/\.$/, ""));
  // Only a literal domain name can be searched for (an unresolved expression is not a zone name).
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(needle)) return value;
  const haystack = asciiLower(value);
  meter.steps += 2 * value.length;
  let out = "";
  let from = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
    meter.steps += needle.length;
    const end = at + needle.length;
    out += value.slice(from, end);
    from = end;
    const next = value[end];
    if (next !== "/" && next !== "?" && next !== ":") out += "/";
  }
  return out + value.slice(from);
}

/** Splits an optional `scheme://` prefix; a wildcard scheme is resolved against http and https. */
function splitScheme(value: string, notes: string[], meter: WorkMeter): { scheme: PageRuleScheme | null; rest: string } {
  const sep = value.indexOf("://");
  meter.steps += sep < 0 ? value.length : sep;
  if (sep < 0) return { scheme: null, rest: value };
  const written = value.slice(0, sep);
  // A `/` or `?` before the `://` means it belongs to the path or query, not to a scheme.
  if (written.includes("/") || written.includes("?") || written.includes(":")) return { scheme: null, rest: value };
  const text = asciiLower(written);
  const rest = value.slice(sep + 3);
  if (text === "http" || text === "https") return { scheme: text, rest };
  if (!/^[a-z*]+$/.test(text) || !text.includes("*")) {
    throw new UntranslatableTargetError(
      `the target uses the unsupported scheme ${JSON.stringify(written)}: Page Rules match only http and https`,
      "write http://, https:// or no scheme (which matches both)",
    );
  }
  // A wildcard scheme (`*`, `http*`) is kept only as far as it narrows the match to one of the two schemes.
  const http = globMatches(text, "http", meter);
  const https = globMatches(text, "https", meter);
  if (http && https) {
    notes.push(`The scheme "${written}" matches both http and https, so there is no ssl clause.`);
    return { scheme: null, rest };
  }
  if (http || https) return { scheme: http ? "http" : "https", rest };
  throw new UntranslatableTargetError(
    `the target's scheme ${JSON.stringify(written)} matches neither http nor https`,
    "write http://, https:// or no scheme (which matches both)",
  );
}

/**
 * Anchored `*`-only glob (`*` = any run), matched greedily with one backtrack point: O(pattern × value)
 * at worst, never exponential. Used to resolve wildcard schemes against "http" and "https".
 */
function globMatches(pattern: string, value: string, meter: WorkMeter): boolean {
  let p = 0;
  let v = 0;
  let star = -1;
  let mark = 0;
  while (v < value.length) {
    meter.steps++;
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === value[v]) {
      p++;
      v++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = v;
    } else if (star >= 0) {
      p = star + 1;
      v = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  meter.steps += pattern.length;
  return p === pattern.length;
}

function firstIndexOf(value: string, needles: string[], meter: WorkMeter): number {
  meter.steps += needles.length * value.length;
  const hits = needles.map((n) => value.indexOf(n)).filter((i) => i >= 0);
  return hits.length === 0 ? value.length : Math.min(...hits);
}

/** The characters a hostname pattern can hold: letters, digits, `.`, `-`, `_` and the wildcard `*`. */
const HOST_CHARS = /^[A-Za-z0-9.*_-]+$/;

/** Splits `host[:port]`; rejects a missing host, a non-numeric port and non-ASCII hostnames. */
function splitAuthority(authority: string, target: string, meter: WorkMeter): { host: string; port: number | null } {
  meter.steps += 3 * authority.length;
  const colon = authority.indexOf(":");
  const host = colon < 0 ? authority : authority.slice(0, colon);
  if (host === "") {
    throw new UntranslatableTargetError(`the target ${JSON.stringify(target)} has no host`, "write the host the rule applies to, e.g. example.com/path/*, or * for every host");
  }
  // Page Rules don't support non-ASCII domains (fact 10); the zone needs the punycode form.
  if (/[^\u0000-\u007f]/.test(host)) {
    const ascii = punycodeHost(host);
    throw new UntranslatableTargetError(
      `the host ${JSON.stringify(host)} is not ASCII: Page Rules need internationalised domain names in their punycode form`,
      ascii !== null
        ? `write its punycode form ${ascii} (the target ${JSON.stringify(target.trim().replace(host, () => ascii))})`
        : "write the host in its punycode (xn--) form",
    );
  }
  if (!HOST_CHARS.test(host)) {
    throw new UntranslatableTargetError(
      `the host ${JSON.stringify(host)} has characters a hostname cannot contain`,
      "write the hostname with letters, digits, `.`, `-` and `*` only",
    );
  }
  if (colon < 0) return { host, port: null };
  const portText = authority.slice(colon + 1);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port < 1 || port > MAX_PORT) {
    throw new UntranslatableTargetError(
      `the target ${JSON.stringify(target)} has an invalid port ${JSON.stringify(portText)}`,
      "write a port Cloudflare proxies for HTTP or HTTPS (e.g. 8080, 8443), or no port to match every port",
    );
  }
  return { host, port };
}

/** The punycode (`xn--`) form of a non-ASCII host, label by label; null when a label has a `*` or is invalid. */
function punycodeHost(host: string): string | null {
  if (host.includes("*")) {
    const labels = host.split(".").map((label) => (label.includes("*") ? (/[^\u0000-\u007f]/.test(label) ? null : label) : domainToASCII(label) || null));
    return labels.every((l) => l !== null) ? labels.join(".") : null;
  }
  return domainToASCII(host) || null;
}

/** Splits path and query at the first `?`; a missing path is `/`, as Cloudflare stores it (fact 5). */
function splitPathAndQuery(value: string, notes: string[]): { path: string; query: string | null } {
  const q = value.indexOf("?");
  const rawPath = q < 0 ? value : value.slice(0, q);
  const query = q < 0 ? null : value.slice(q + 1);
  if (rawPath !== "") return { path: rawPath, query };
  notes.push("The target has no path; Cloudflare saves it with a trailing `/`, so it matches only the path `/`.");
  return { path: "/", query };
}

/** Lower-cases A–Z only: Page Rules and wildcard folding are ASCII-only (fact 20). */
function asciiLower(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : text[i];
  }
  return out;
}

// ---- expression building -------------------------------------------------------------------------------

function schemeToClause(scheme: PageRuleScheme | null): string | null {
  if (scheme === "https") return "ssl";
  if (scheme === "http") return "not ssl";
  return null;
}

/**
 * With a port, also accept `host:port` in http.host: it is undocumented whether Cloudflare strips the port
 * from http.host for non-standard ports (reference section 5, "Port handling"; table row 13).
 */
function hostClause(host: string, port: number | null, meter: WorkMeter): string {
  const plain = `http.host wildcard ${wildcardLiteral(host, meter)}`;
  if (port === null) return plain;
  return `(${plain} or http.host wildcard ${wildcardLiteral(`${host}:${port}`, meter)})`;
}

/**
 * The path part: `http.request.uri` when the target has `?` (the wildcard `?` is literal, so a `*` may span
 * path and query as in Page Rules); otherwise `http.request.uri.path`, so the query can never take part.
 */
function pathOrUriClause(parsed: ParsedTarget, meter: WorkMeter): string | null {
  // Host-less: the leading `*` swallows scheme, host and the start of the path, so keep it on the path.
  const prefix = parsed.hostless ? "*" : "";
  if (parsed.query !== null) {
    return `http.request.uri wildcard ${wildcardLiteral(`${prefix}${parsed.path}?${parsed.query}`, meter)}`;
  }
  if (parsed.hostless) return `http.request.uri.path wildcard ${wildcardLiteral(prefix + parsed.path, meter)}`;
  // Every path starts with `/`, so `/*` constrains nothing; the host clause is always present here.
  if (parsed.path === "/*") return null;
  // `/` has no letters, so case-sensitive `eq` is exact (table row 4).
  if (parsed.path === "/") return 'http.request.uri.path eq "/"';
  return `http.request.uri.path wildcard ${wildcardLiteral(parsed.path, meter)}`;
}

/**
 * A wildcard literal as a raw string. `*` stays a metacharacter (Page Rules cannot express a literal `*`),
 * a literal `\` becomes `\\` for the wildcard syntax; the raw string avoids a second layer of escaping.
 */
export function wildcardLiteral(value: string, meter: WorkMeter = { steps: 0 }): string {
  meter.steps += value.length;
  return rawString(value.replace(/\\/g, "\\\\"), meter);
}

/**
 * `r"…"`, or `r#"…"#` (more `#` as needed) when the content would otherwise end the string early. A raw
 * string ends at `"` followed by its hash count, so the count is one more than the longest run of `#`
 * after any `"` in the content: found in one pass (a search per candidate count was quadratic).
 */
export function rawString(content: string, meter: WorkMeter = { steps: 0 }): string {
  meter.steps += content.length;
  let longest = -1;
  for (let i = 0; i < content.length; i++) {
    if (content[i] !== '"') continue;
    let run = 0;
    while (content[i + 1 + run] === "#") run++;
    if (run > longest) longest = run;
    i += run;
  }
  const hashes = "#".repeat(longest + 1);
  return `r${hashes}"${content}"${hashes}`;
}
