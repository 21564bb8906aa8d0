// A small, pure evaluator for exactly the Rules-language subset the Page Rule translator emits, plus a
// reference matcher of Page Rule semantics. Both exist so translations can be checked offline against the
// test vectors of reference/page-rule-patterns.md; neither is a general wirefilter implementation.
//
// Supported: `ssl`, `not`, `and`, `or`, parentheses; `wildcard` (string field vs string literal) and `eq`
// (string field vs string literal, integer field vs integer); string literals `"…"` (escapes `\"`, `\\`)
// and raw strings `r"…"`, `r#"…"#`. Precedence as in wirefilter: not > and > or.

/** The request fields the supported expressions can read. */
export interface RequestFields {
  ssl: boolean;
  /** `http.host`: the hostname (no port when derived from a URL). */
  host: string;
  /** `cf.edge.server_port`. */
  port: number;
  /** `http.request.uri.path`. */
  path: string;
  /** `http.request.uri`: path, plus `?` and the query when the query is non-empty. */
  uri: string;
}

type StringField = "http.host" | "http.request.uri.path" | "http.request.uri";
type IntField = "cf.edge.server_port";

type Node =
  | { kind: "and" | "or"; left: Node; right: Node }
  | { kind: "not"; operand: Node }
  | { kind: "ssl" }
  | { kind: "wildcard"; field: StringField; pattern: WildcardPattern }
  | { kind: "eqString"; field: StringField; value: string }
  | { kind: "eqInt"; field: IntField; value: number };

type Token =
  | { kind: "word"; text: string }
  | { kind: "string"; value: string }
  | { kind: "int"; value: number }
  | { kind: "(" | ")" };

const STRING_FIELDS: readonly string[] = ["http.host", "http.request.uri.path", "http.request.uri"];
const INT_FIELDS: readonly string[] = ["cf.edge.server_port"];

// ---- public API ----------------------------------------------------------------------------------------

/** Evaluates an expression of the supported subset against a URL or explicit fields; throws on bad syntax. */
export function evaluateExpression(expr: string, request: { url: string } | RequestFields): boolean {
  const fields = "url" in request ? requestFieldsFromUrl(request.url) : request;
  return evaluate(parseExpression(expr), fields);
}

/**
 * Turns `https://Shop.Example.com:8080/a/b?x=1` into request fields. The URL is split textually (no WHATWG
 * normalisation), so backslashes, quotes and case in the path reach the fields as a raw request line would.
 */
export function requestFieldsFromUrl(url: string): RequestFields {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/.exec(url);
  if (match === null) throw new Error(`Not an absolute URL: ${JSON.stringify(url)}`);
  const scheme = match[1].toLowerCase();
  if (scheme !== "http" && scheme !== "https") throw new Error(`Unsupported URL scheme: ${JSON.stringify(url)}`);
  const ssl = scheme === "https";
  const { host, port } = splitUrlAuthority(match[2], ssl, url);
  const path = match[3] === "" ? "/" : match[3];
  const query = match[4] ?? "";
  return { ssl, host, port, path, uri: query === "" ? path : `${path}?${query}` };
}

/** `wildcard` semantics (fact 16): ASCII case-insensitive, anchored, `*` = any run, `?` literal. */
export function wildcardMatches(pattern: string, value: string): boolean {
  return matchCompiled(compileWildcard(pattern), value);
}

/**
 * Reference matcher of Page Rule semantics under the narrower documented reading: scheme and port only
 * when given; ASCII case-insensitive; `*` = any run but confined to the host or to the path(+query) part;
 * the query takes part only when the target has `?`; no path means `/`; a host of just `*` means the
 * `*` also swallows the start of the path. Written independently of the translator (its own parsing and a
 * regex-based glob) so property tests comparing the two are meaningful.
 */
export function pageRuleMatches(target: string, url: string): boolean {
  const t = parseReferenceTarget(target);
  const f = requestFieldsFromUrl(url);
  if (t.scheme !== null && !globRegExp(t.scheme).test(f.ssl ? "https" : "http")) return false;
  if (t.port !== null && t.port !== f.port) return false;
  const hostless = /^\*+$/.test(t.host);
  if (!hostless && !globRegExp(t.host).test(asciiLower(f.host))) return false;
  const pathPattern = (hostless ? "*" : "") + t.path + (t.query === null ? "" : `?${t.query}`);
  const subject = t.query === null ? f.path : f.uri;
  return globRegExp(pathPattern).test(asciiLower(subject));
}

// ---- URL helpers ---------------------------------------------------------------------------------------

/** Splits `[userinfo@]host[:port]` (IPv6 in brackets allowed); the port defaults to 443/80. */
function splitUrlAuthority(authority: string, ssl: boolean, url: string): { host: string; port: number } {
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  if (match === null) throw new Error(`Invalid host or port in URL: ${JSON.stringify(url)}`);
  const port = match[2] === undefined || match[2] === "" ? (ssl ? 443 : 80) : Number(match[2]);
  return { host: match[1], port };
}

/** Lower-cases A–Z only: wildcard folding and Page Rules are ASCII-only (fact 20), never Unicode-aware. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

// ---- reference matcher internals -----------------------------------------------------------------------

interface ReferenceTarget {
  scheme: string | null;
  host: string;
  port: number | null;
  path: string;
  query: string | null;
}

function parseReferenceTarget(target: string): ReferenceTarget {
  const trimmed = target.trim();
  const match = /^(?:([A-Za-z*]+):\/\/)?([^/?:]+)(?::(\d+))?(\/[^?]*)?(?:\?(.*))?$/s.exec(trimmed);
  if (match === null) throw new Error(`Unsupported Page Rule target: ${JSON.stringify(target)}`);
  return {
    scheme: match[1] === undefined ? null : asciiLower(match[1]),
    host: asciiLower(match[2]),
    port: match[3] === undefined ? null : Number(match[3]),
    path: asciiLower(match[4] ?? "/"),
    query: match[5] === undefined ? null : asciiLower(match[5]),
  };
}

/** Anchored glob where `*` is any run and everything else literal; callers lower-case both sides. */
function globRegExp(pattern: string): RegExp {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${source}$`);
}

// ---- wildcard literals ---------------------------------------------------------------------------------

/** A wildcard literal split at its `*` metacharacters; the pieces are lower-cased literal text. */
export interface WildcardPattern {
  pieces: string[];
}

/**
 * Compiles a wildcard literal like wirefilter does: `\*` and `\\` are the only escapes, any other
 * backslash sequence is invalid, and `**` is rejected (fact 17).
 */
export function compileWildcard(pattern: string): WildcardPattern {
  const pieces: string[] = [""];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") {
      if (pattern[i + 1] === "*") throw new Error(`Invalid wildcard ${JSON.stringify(pattern)}: "**"`);
      pieces.push("");
    } else if (c === "\\") {
      const next = pattern[i + 1];
      if (next !== "*" && next !== "\\") {
        throw new Error(`Invalid wildcard ${JSON.stringify(pattern)}: bad escape at offset ${i}`);
      }
      pieces[pieces.length - 1] += next;
      i++;
    } else {
      pieces[pieces.length - 1] += c;
    }
  }
  return { pieces: pieces.map(asciiLower) };
}

/**
 * Anchored match of a `*`-only glob: the first piece is a prefix, the last a suffix, and the middle pieces
 * are found left to right at their earliest position (always optimal for `*`-only globs, no backtracking).
 */
function matchCompiled({ pieces }: WildcardPattern, rawValue: string): boolean {
  const value = asciiLower(rawValue);
  if (pieces.length === 1) return value === pieces[0];
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (value.length < first.length + last.length) return false;
  if (!value.startsWith(first) || !value.endsWith(last)) return false;
  const end = value.length - last.length;
  let pos = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const at = value.indexOf(piece, pos);
    if (at < 0 || at + piece.length > end) return false;
    pos = at + piece.length;
  }
  return true;
}

// ---- tokenizer -----------------------------------------------------------------------------------------

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ kind: c });
      i++;
    } else if (c === "r" && (expr[i + 1] === '"' || expr[i + 1] === "#")) {
      i = lexRawString(expr, i, tokens);
    } else if (c === '"') {
      i = lexQuotedString(expr, i, tokens);
    } else if (/[0-9]/.test(c)) {
      const digits = /^[0-9]+/.exec(expr.slice(i))![0];
      tokens.push({ kind: "int", value: Number(digits) });
      i += digits.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(expr.slice(i))![0];
      tokens.push({ kind: "word", text: word });
      i += word.length;
    } else {
      throw new Error(`Unexpected character ${JSON.stringify(c)} at offset ${i} in expression`);
    }
  }
  return tokens;
}

/** `r#…#"…"#…#`: ends at the first `"` followed by as many `#` as opened it (wirefilter's rule). */
function lexRawString(expr: string, start: number, tokens: Token[]): number {
  let i = start + 1;
  let hashes = "";
  while (expr[i] === "#") {
    hashes += "#";
    i++;
  }
  if (expr[i] !== '"') throw new Error(`Malformed raw string at offset ${start}`);
  const close = expr.indexOf(`"${hashes}`, i + 1);
  if (close < 0) throw new Error(`Unterminated raw string at offset ${start}`);
  tokens.push({ kind: "string", value: expr.slice(i + 1, close) });
  return close + 1 + hashes.length;
}

/** `"…"` with only the `\"` and `\\` escapes (the only ones the translator could need). */
function lexQuotedString(expr: string, start: number, tokens: Token[]): number {
  let value = "";
  for (let i = start + 1; i < expr.length; i++) {
    const c = expr[i];
    if (c === '"') {
      tokens.push({ kind: "string", value });
      return i + 1;
    }
    if (c === "\\") {
      const next = expr[i + 1];
      if (next !== '"' && next !== "\\") throw new Error(`Unsupported string escape at offset ${i}`);
      value += next;
      i++;
    } else {
      value += c;
    }
  }
  throw new Error(`Unterminated string at offset ${start}`);
}

// ---- parser --------------------------------------------------------------------------------------------

/** Parses an expression of the supported subset into a tree; throws on anything outside it. */
function parseExpression(expr: string): Node {
  const tokens = tokenize(expr);
  let pos = 0;
  const peekWord = (text: string): boolean => {
    const t = tokens[pos];
    return t !== undefined && t.kind === "word" && t.text === text;
  };

  const parseOr = (): Node => {
    let left = parseAnd();
    while (peekWord("or")) {
      pos++;
      left = { kind: "or", left, right: parseAnd() };
    }
    return left;
  };
  const parseAnd = (): Node => {
    let left = parseUnary();
    while (peekWord("and")) {
      pos++;
      left = { kind: "and", left, right: parseUnary() };
    }
    return left;
  };
  const parseUnary = (): Node => {
    if (!peekWord("not")) return parsePrimary();
    pos++;
    return { kind: "not", operand: parseUnary() };
  };
  const parsePrimary = (): Node => {
    const t = tokens[pos++];
    if (t === undefined) throw new Error("Unexpected end of expression");
    if (t.kind === "(") {
      const inner = parseOr();
      if (tokens[pos++]?.kind !== ")") throw new Error("Missing closing parenthesis");
      return inner;
    }
    if (t.kind !== "word") throw new Error(`Expected a field, got ${t.kind}`);
    if (t.text === "ssl") return { kind: "ssl" };
    return parseComparison(t.text);
  };
  const parseComparison = (field: string): Node => {
    const op = tokens[pos++];
    const rhs = tokens[pos++];
    if (op?.kind !== "word" || rhs === undefined) throw new Error(`Incomplete comparison on ${field}`);
    return comparisonNode(field, op.text, rhs);
  };

  const tree = parseOr();
  if (pos !== tokens.length) throw new Error(`Unexpected trailing input in expression ${JSON.stringify(expr)}`);
  return tree;
}

/** Type-checks one `field op value` comparison, so a mistyped translation fails loudly in tests. */
function comparisonNode(field: string, op: string, rhs: Token): Node {
  if (STRING_FIELDS.includes(field) && rhs.kind === "string") {
    const f = field as StringField;
    if (op === "wildcard") return { kind: "wildcard", field: f, pattern: compileWildcard(rhs.value) };
    if (op === "eq") return { kind: "eqString", field: f, value: rhs.value };
  }
  if (INT_FIELDS.includes(field) && rhs.kind === "int" && op === "eq") {
    return { kind: "eqInt", field: field as IntField, value: rhs.value };
  }
  throw new Error(`Unsupported comparison: ${field} ${op} ${rhs.kind}`);
}

// ---- evaluation ----------------------------------------------------------------------------------------

function stringField(fields: RequestFields, field: StringField): string {
  if (field === "http.host") return fields.host;
  if (field === "http.request.uri.path") return fields.path;
  return fields.uri;
}

function evaluate(node: Node, fields: RequestFields): boolean {
  switch (node.kind) {
    case "and":
      return evaluate(node.left, fields) && evaluate(node.right, fields);
    case "or":
      return evaluate(node.left, fields) || evaluate(node.right, fields);
    case "not":
      return !evaluate(node.operand, fields);
    case "ssl":
      return fields.ssl;
    case "wildcard":
      return matchCompiled(node.pattern, stringField(fields, node.field));
    case "eqString":
      // `eq` is a case-sensitive byte comparison in the Rules language.
      return stringField(fields, node.field) === node.value;
    case "eqInt":
      return fields.port === node.value;
  }
}
