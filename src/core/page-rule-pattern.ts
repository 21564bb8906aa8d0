// Translate a Page Rule target URL pattern (`targets[0].constraint.value`) into a Ruleset Engine expression
// for a skip rule. Pure: no I/O.
//
// The expression is built per URL component (`ssl`, `http.host`, `cf.edge.server_port`,
// `http.request.uri.path` / `http.request.uri`) and never as one `http.request.full_uri wildcard`: in a
// whole-URL wildcard a `*` can absorb the host or the query string, and a skip rule built that way would
// switch the WAF off for other hosts (reference/page-rule-patterns.md, fact 29). Where Page Rules behaviour
// is undocumented we take the narrower reading, because a skip rule turns security off.

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

/** Parses a Page Rule target into its components; throws an Error for targets that cannot be translated. */
export function parsePageRuleTarget(target: string): ParsedTarget {
  const notes: string[] = [];
  const trimmed = checkedTrim(target);
  const collapsed = trimmed.replace(/\*{2,}/g, "*");
  if (collapsed !== trimmed) {
    // `**` means the same as `*` in a Page Rule but is invalid in a wildcard literal (fact 16/17).
    notes.push("Runs of `*` were collapsed to a single `*` (`**` is invalid in a wildcard literal).");
  }

  const { scheme, rest } = splitScheme(collapsed, notes);
  const authorityEnd = firstIndexOf(rest, ["/", "?"]);
  const authority = rest.slice(0, authorityEnd);
  const { host, port } = splitAuthority(authority, target);
  const { path, query } = splitPathAndQuery(rest.slice(authorityEnd), notes);

  return { scheme, host, port, path, query, hostless: host === "*", notes };
}

/** Builds the skip-rule expression for a Page Rule target (see reference/page-rule-patterns.md, section 5). */
export function pageRuleTargetToExpression(target: string): PageRuleExpression {
  const parsed = parsePageRuleTarget(target);
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
    clauses.push(hostClause(parsed.host, parsed.port));
  }
  if (parsed.query !== null) {
    notes.push(
      "The target has a query part: matched on http.request.uri (path + \"?\" + query); Page Rules' query " +
        "semantics (parameter order, how far a `*` reaches) are barely documented.",
    );
  }
  const pathClause = pathOrUriClause(parsed);
  if (pathClause !== null) clauses.push(pathClause);

  const exact = parsed.port === null && parsed.query === null && !parsed.hostless;
  return { expression: clauses.join(" and "), exact, notes };
}

// ---- parsing helpers -----------------------------------------------------------------------------------

/** Trims surrounding whitespace (copy-paste artefacts) and rejects targets that can't be a URL pattern. */
function checkedTrim(target: string): string {
  const trimmed = target.trim();
  if (trimmed === "") throw new Error("Page Rule target is empty: there is no URL pattern to translate.");
  // A URL never contains raw whitespace or control characters; guessing what was meant would be unsafe.
  if (/[\s\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new Error(`Page Rule target ${JSON.stringify(target)} contains whitespace or control characters.`);
  }
  return trimmed;
}

/** Splits an optional `scheme://` prefix; a wildcard scheme is resolved against http and https. */
function splitScheme(value: string, notes: string[]): { scheme: PageRuleScheme | null; rest: string } {
  const match = /^([^:/?]*):\/\//.exec(value);
  if (match === null) return { scheme: null, rest: value };
  const text = match[1].toLowerCase();
  const rest = value.slice(match[0].length);
  if (text === "http" || text === "https") return { scheme: text, rest };
  if (!/^[a-z*]+$/.test(text) || !text.includes("*")) {
    throw new Error(`Page Rule target uses the unsupported scheme ${JSON.stringify(match[1])}.`);
  }
  // A wildcard scheme (`*`, `http*`) is kept only as far as it narrows the match to one of the two schemes.
  const http = simpleGlob(text, "http");
  const https = simpleGlob(text, "https");
  if (http && https) {
    notes.push(`The scheme "${match[1]}" matches both http and https, so there is no ssl clause.`);
    return { scheme: null, rest };
  }
  if (http || https) return { scheme: http ? "http" : "https", rest };
  throw new Error(`Page Rule target scheme ${JSON.stringify(match[1])} matches neither http nor https.`);
}

/** Case-insensitive match of a tiny `*`-only glob, used only to resolve wildcard schemes. */
function simpleGlob(pattern: string, value: string): boolean {
  const source = pattern.split("*").map(escapeRegExp).join(".*");
  return new RegExp(`^${source}$`).test(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function firstIndexOf(value: string, needles: string[]): number {
  const hits = needles.map((n) => value.indexOf(n)).filter((i) => i >= 0);
  return hits.length === 0 ? value.length : Math.min(...hits);
}

/** Splits `host[:port]`; rejects a missing host, a non-numeric port and non-ASCII hostnames. */
function splitAuthority(authority: string, target: string): { host: string; port: number | null } {
  const colon = authority.indexOf(":");
  const host = colon < 0 ? authority : authority.slice(0, colon);
  if (host === "") throw new Error(`Page Rule target ${JSON.stringify(target)} has no host.`);
  // Page Rules don't support non-ASCII domains (fact 10); the zone needs the punycode form.
  if (/[^\u0000-\u007f]/.test(host)) {
    throw new Error(`Page Rule target host ${JSON.stringify(host)} is not ASCII; use its punycode form.`);
  }
  if (colon < 0) return { host, port: null };
  const portText = authority.slice(colon + 1);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > MAX_PORT) {
    throw new Error(`Page Rule target ${JSON.stringify(target)} has an invalid port ${JSON.stringify(portText)}.`);
  }
  return { host, port };
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
function hostClause(host: string, port: number | null): string {
  const plain = `http.host wildcard ${wildcardLiteral(host)}`;
  if (port === null) return plain;
  return `(${plain} or http.host wildcard ${wildcardLiteral(`${host}:${port}`)})`;
}

/**
 * The path part: `http.request.uri` when the target has `?` (the wildcard `?` is literal, so a `*` may span
 * path and query as in Page Rules); otherwise `http.request.uri.path`, so the query can never take part.
 */
function pathOrUriClause(parsed: ParsedTarget): string | null {
  // Host-less: the leading `*` swallows scheme, host and the start of the path, so keep it on the path.
  const prefix = parsed.hostless ? "*" : "";
  if (parsed.query !== null) {
    return `http.request.uri wildcard ${wildcardLiteral(`${prefix}${parsed.path}?${parsed.query}`)}`;
  }
  if (parsed.hostless) return `http.request.uri.path wildcard ${wildcardLiteral(prefix + parsed.path)}`;
  // Every path starts with `/`, so `/*` constrains nothing; the host clause is always present here.
  if (parsed.path === "/*") return null;
  // `/` has no letters, so case-sensitive `eq` is exact (table row 4).
  if (parsed.path === "/") return 'http.request.uri.path eq "/"';
  return `http.request.uri.path wildcard ${wildcardLiteral(parsed.path)}`;
}

/**
 * A wildcard literal as a raw string. `*` stays a metacharacter (Page Rules cannot express a literal `*`),
 * a literal `\` becomes `\\` for the wildcard syntax; the raw string avoids a second layer of escaping.
 */
export function wildcardLiteral(value: string): string {
  return rawString(value.replace(/\\/g, "\\\\"));
}

/** `r"…"`, or `r#"…"#` (more `#` as needed) when the content would otherwise end the string early. */
export function rawString(content: string): string {
  let hashes = "";
  // A raw string ends at `"` followed by its hash count, so pick the first count that never occurs inside.
  while (content.includes(`"${hashes}`)) hashes += "#";
  return `r${hashes}"${content}"${hashes}`;
}
