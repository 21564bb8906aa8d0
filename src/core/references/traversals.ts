// The references an HCL expression makes: `type.name`, `data.type.name`, `local.x`, `var.x`,
// `module.m` / `module.m.output`. Input is expression text as hcl2json gives it (a value `"${…}"` is a
// template; the text between the braces is an expression), so this works on text, not on a syntax tree.
//
// What is *not* a reference: iteration variables of `for` expressions and `%{ for }` directives, object
// keys (`{ a = … }`), function names (`try(…)`, `provider::ns::fn(…)`), attribute names after a dot, the
// built-ins `count`, `each`, `self`, `path`, `terraform`, and anything inside string literals except their
// `${…}` interpolations. Index expressions (`x[var.k]`) are scanned for references of their own.
//
// Pure: no I/O, no HCL library. Unbalanced or garbled text never throws: what can be read is returned.

export type Reference =
  | { kind: "resource"; type: string; name: string }
  | { kind: "data"; type: string; name: string }
  | { kind: "local"; name: string }
  | { kind: "var"; name: string }
  | { kind: "module"; name: string; output: string | null };

/** The address a reference names, as written in HCL without indexes: `data.t.n`, `module.m.o`, `local.x`. */
export function referenceKey(r: Reference): string {
  switch (r.kind) {
    case "resource":
      return `${r.type}.${r.name}`;
    case "data":
      return `data.${r.type}.${r.name}`;
    case "local":
      return `local.${r.name}`;
    case "var":
      return `var.${r.name}`;
    case "module":
      return r.output === null ? `module.${r.name}` : `module.${r.name}.${r.output}`;
  }
}

/** Roots that Terraform defines itself: never a reference to a block of the configuration. */
const BUILTIN_ROOTS = new Set(["count", "each", "self", "path", "terraform"]);
const KEYWORDS = new Set(["true", "false", "null", "for", "in", "if", "endfor", "endif", "else"]);

type Tok =
  | { t: "id"; v: string }
  | { t: "num" }
  | { t: "op"; v: string }
  | { t: "nl" }
  /** Opening of a bracket: `(`, `[`, `{`, `${` (interpolation) or `%{` (directive). */
  | { t: "open"; v: "(" | "[" | "{" | "${" | "%{" }
  | { t: "close"; v: ")" | "]" | "}" };

const IDENT_START = /[\p{ID_Start}_]/u;
const IDENT_CHAR = /[\p{ID_Continue}_-]/u;
const OPS3 = ["..."];
const OPS2 = ["==", "!=", "<=", ">=", "&&", "||", "=>", "::"];

/** Tokens of an expression. */
function tokenizeExpression(src: string, out: Tok[]): void {
  const lx = new Lexer(src, out);
  lx.expression(() => false);
}

/** Tokens of a template (a string value's content, or a heredoc body): only its interpolations and directives. */
function tokenizeTemplate(src: string, out: Tok[]): void {
  const lx = new Lexer(src, out);
  lx.templateUntil(() => false, false);
}

class Lexer {
  pos = 0;
  constructor(
    readonly s: string,
    readonly out: Tok[],
  ) {}

  /** Reads expression tokens until `stop()` holds at a depth-0 position (or the end). */
  expression(stop: () => boolean): void {
    let depth = 0;
    const s = this.s;
    while (this.pos < s.length) {
      if (depth === 0 && stop()) return;
      const c = s[this.pos]!;
      if (c === "\n") {
        this.out.push({ t: "nl" });
        this.pos++;
      } else if (c === " " || c === "\t" || c === "\r") {
        this.pos++;
      } else if (c === "#" || (c === "/" && s[this.pos + 1] === "/")) {
        while (this.pos < s.length && s[this.pos] !== "\n") this.pos++;
      } else if (c === "/" && s[this.pos + 1] === "*") {
        const end = s.indexOf("*/", this.pos + 2);
        this.pos = end === -1 ? s.length : end + 2;
      } else if (c === '"') {
        this.pos++;
        this.templateUntil(() => this.s[this.pos] === '"', true);
        this.pos++; // closing quote (or past the end)
      } else if (c === "<" && s[this.pos + 1] === "<" && /^<<-?[\p{ID_Start}_]/u.test(s.slice(this.pos, this.pos + 4))) {
        this.heredoc();
      } else if (c === "(" || c === "[" || c === "{") {
        this.out.push({ t: "open", v: c });
        depth++;
        this.pos++;
      } else if (c === ")" || c === "]" || c === "}") {
        // A `}` at depth 0 ends the interpolation this expression sits in: the caller's stop() sees it.
        if (depth === 0 && c === "}") return;
        this.out.push({ t: "close", v: c });
        if (depth > 0) depth--;
        this.pos++;
      } else if (IDENT_START.test(c)) {
        const start = this.pos;
        this.pos++;
        while (this.pos < s.length && IDENT_CHAR.test(s[this.pos]!)) this.pos++;
        this.out.push({ t: "id", v: s.slice(start, this.pos) });
      } else if (c >= "0" && c <= "9") {
        const m = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(s.slice(this.pos, this.pos + 64))!;
        this.out.push({ t: "num" });
        this.pos += m[0].length;
      } else {
        const three = s.slice(this.pos, this.pos + 3);
        const two = s.slice(this.pos, this.pos + 2);
        const v = OPS3.includes(three) ? three : OPS2.includes(two) ? two : c;
        this.out.push({ t: "op", v });
        this.pos += v.length;
      }
    }
  }

  /**
   * Template content until `end()` holds (outside interpolations). `quoted`: inside `"…"`, where `\`
   * escapes the next character. `$${` and `%%{` are literal text.
   */
  templateUntil(end: () => boolean, quoted: boolean): void {
    const s = this.s;
    while (this.pos < s.length && !end()) {
      const c = s[this.pos]!;
      if (quoted && c === "\\") {
        this.pos += 2;
      } else if ((c === "$" || c === "%") && s[this.pos + 1] === c && s[this.pos + 2] === "{") {
        this.pos += 3;
      } else if ((c === "$" || c === "%") && s[this.pos + 1] === "{") {
        this.out.push({ t: "open", v: c === "$" ? "${" : "%{" });
        this.pos += 2;
        this.expression(() => this.s[this.pos] === "}");
        this.out.push({ t: "close", v: "}" });
        this.pos++;
      } else if (quoted && c === "\n") {
        // An unterminated quoted string: stop at the line end, as HCL does.
        return;
      } else {
        this.pos++;
      }
    }
  }

  /** `<<EOT` / `<<-EOT`, then lines up to the one holding only the marker. */
  heredoc(): void {
    const s = this.s;
    const m = /^<<-?([\p{ID_Start}_][\p{ID_Continue}_-]*)[ \t]*\r?\n/u.exec(s.slice(this.pos, this.pos + 200));
    if (!m) {
      this.out.push({ t: "op", v: "<" });
      this.pos++;
      return;
    }
    const marker = m[1]!;
    this.pos += m[0].length;
    const closesHere = (): boolean => {
      const atLineStart = this.pos === 0 || s[this.pos - 1] === "\n";
      if (!atLineStart) return false;
      const lineEnd = s.indexOf("\n", this.pos);
      const line = s.slice(this.pos, lineEnd === -1 ? s.length : lineEnd);
      return line.trim() === marker;
    };
    this.templateUntil(closesHere, false);
    const lineEnd = s.indexOf("\n", this.pos);
    // Past the marker; the newline after it is an ordinary token.
    this.pos = lineEnd === -1 ? s.length : lineEnd;
  }
}

/** Index of the token closing the bracket opened at `open`, or `end` when unbalanced. */
function matching(toks: Tok[], open: number, end: number): number {
  let depth = 0;
  for (let i = open; i < end; i++) {
    const k = toks[i]!;
    if (k.t === "open") depth++;
    else if (k.t === "close" && --depth === 0) return i;
  }
  return end;
}

function isOp(k: Tok | undefined, v: string): boolean {
  return k !== undefined && k.t === "op" && k.v === v;
}

class Collector {
  readonly refs: Reference[] = [];
  constructor(readonly toks: Tok[]) {}

  /** Scans tokens [from, to) with `scope` (iteration variables in force); `inObject`: the range is an object body. */
  scan(from: number, to: number, scope: ReadonlySet<string>, inObject = false): void {
    const toks = this.toks;
    // Template `%{ for x in … }` directives put variables in force until their `%{ endfor }`.
    const directiveScopes: string[][] = [];
    const inScope = (name: string): boolean => scope.has(name) || directiveScopes.some((d) => d.includes(name));
    let i = from;
    while (i < to) {
      const k = toks[i]!;
      if (k.t === "open") {
        const close = Math.min(matching(toks, i, to), to);
        if ((k.v === "[" || k.v === "{") && this.isFor(i + 1, close)) {
          this.forExpression(i + 1, close, new Set([...scope, ...directiveScopes.flat()]));
        } else if (k.v === "%{") {
          this.directive(i + 1, close, new Set([...scope, ...directiveScopes.flat()]), directiveScopes);
        } else {
          this.scan(i + 1, close, new Set([...scope, ...directiveScopes.flat()]), k.v === "{");
        }
        i = close + 1;
        continue;
      }
      if (k.t !== "id") {
        i++;
        continue;
      }
      const prev = toks[i - 1];
      const next = toks[i + 1];
      // An attribute name after `.` that no traversal consumed (`f(x).attr`): not a root.
      if (i > from && isOp(prev, ".")) {
        i++;
        continue;
      }
      // Function calls, including provider functions `provider::ns::fn(…)`.
      if (next && next.t === "open" && next.v === "(") {
        i++;
        continue;
      }
      if (isOp(next, "::")) {
        while (i < to && (toks[i]!.t === "id" || isOp(toks[i], "::"))) i++;
        continue;
      }
      // Object keys: `{ key = …, key: … }` at the start of an element.
      if (inObject && (isOp(next, "=") || isOp(next, ":")) && (i === from || prev?.t === "nl" || isOp(prev, ","))) {
        i++;
        continue;
      }
      i = this.traversal(i, to, inScope);
    }
  }

  private isFor(from: number, to: number): boolean {
    let i = from;
    while (i < to && this.toks[i]!.t === "nl") i++;
    const k = this.toks[i];
    return k !== undefined && k.t === "id" && k.v === "for";
  }

  /** `for a, b in COLL : BODY` (the brackets already stripped): COLL in the outer scope, BODY with a and b. */
  private forExpression(from: number, to: number, scope: Set<string>): void {
    const toks = this.toks;
    let i = from;
    while (toks[i]?.t === "nl") i++;
    i++; // `for`
    const vars: string[] = [];
    while (i < to && !(toks[i]!.t === "id" && (toks[i] as { v: string }).v === "in")) {
      const k = toks[i]!;
      if (k.t === "id") vars.push(k.v);
      i++;
    }
    i++; // `in`
    const colon = this.topLevel(i, to, (k) => isOp(k, ":"));
    this.scan(i, colon, scope);
    this.scan(colon + 1, to, new Set([...scope, ...vars]));
  }

  /** `%{ for x in COLL }`, `%{ if COND }`, `%{ endfor }`, … inside a template. */
  private directive(from: number, to: number, scope: Set<string>, directiveScopes: string[][]): void {
    const toks = this.toks;
    let i = from;
    while (i < to && (toks[i]!.t === "nl" || isOp(toks[i], "~"))) i++;
    const head = toks[i];
    if (head?.t === "id" && head.v === "for") {
      const vars: string[] = [];
      i++;
      while (i < to && !(toks[i]!.t === "id" && (toks[i] as { v: string }).v === "in")) {
        const k = toks[i]!;
        if (k.t === "id") vars.push(k.v);
        i++;
      }
      this.scan(i + 1, to, scope);
      directiveScopes.push(vars);
    } else if (head?.t === "id" && head.v === "endfor") {
      directiveScopes.pop();
    } else {
      this.scan(i, to, scope);
    }
  }

  private topLevel(from: number, to: number, pred: (k: Tok) => boolean): number {
    for (let i = from; i < to; i++) {
      const k = this.toks[i]!;
      if (k.t === "open") i = matching(this.toks, i, to);
      else if (pred(k)) return i;
    }
    return to;
  }

  /** Reads the traversal rooted at the identifier at `i`; returns the index after it. */
  private traversal(i: number, to: number, inScope: (name: string) => boolean): number {
    const toks = this.toks;
    const root = (toks[i] as { v: string }).v;
    // Attribute names (null for an index or a splat), in order.
    const steps: (string | null)[] = [];
    let j = i + 1;
    while (j < to) {
      const k = toks[j]!;
      if (isOp(k, ".")) {
        const n = toks[j + 1];
        if (n?.t === "id") {
          // `x.f(…)` cannot occur in HCL; stop rather than misread a call.
          steps.push(n.v);
          j += 2;
        } else if (n?.t === "num" || isOp(n, "*")) {
          steps.push(null);
          j += 2;
        } else break;
      } else if (k.t === "open" && k.v === "[") {
        const close = Math.min(matching(toks, j, to), to);
        // `[*]` is a splat; anything else is an index, itself an expression with references.
        if (!(close === j + 2 && isOp(toks[j + 1], "*"))) this.scan(j + 1, close, new Set());
        steps.push(null);
        j = close + 1;
      } else break;
    }
    if (KEYWORDS.has(root) || BUILTIN_ROOTS.has(root) || inScope(root)) return j;
    const names = (from: number, n: number): string[] | null => {
      const out: string[] = [];
      for (let k = from; k < from + n; k++) {
        const s = steps[k];
        if (typeof s !== "string") return null;
        out.push(s);
      }
      return out;
    };
    if (root === "var" || root === "local") {
      const n = names(0, 1);
      if (n) this.refs.push({ kind: root === "var" ? "var" : "local", name: n[0]! });
    } else if (root === "module") {
      const n = names(0, 1);
      if (n) {
        // Skip the instance key or splat: `module.m["k"].out`, `module.m[*].out`.
        let k = 1;
        while (k < steps.length && steps[k] === null) k++;
        const output = k < steps.length ? (steps[k] as string) : null;
        this.refs.push({ kind: "module", name: n[0]!, output });
      }
    } else if (root === "data") {
      const n = names(0, 2);
      if (n) this.refs.push({ kind: "data", type: n[0]!, name: n[1]! });
    } else {
      const n = names(0, 1);
      if (n) this.refs.push({ kind: "resource", type: root, name: n[0]! });
    }
    return j;
  }
}

/** The references of one expression (the text between `${` and `}`). */
export function referencesInExpression(expr: string): Reference[] {
  const toks: Tok[] = [];
  tokenizeExpression(expr, toks);
  const c = new Collector(toks);
  c.scan(0, toks.length, new Set());
  return dedupe(c.refs);
}

/** The references of a template: a string value as hcl2json gives it (`"a-${var.b}"`, heredoc text). */
export function referencesInTemplate(text: string): Reference[] {
  if (!text.includes("{")) return [];
  const toks: Tok[] = [];
  tokenizeTemplate(text, toks);
  const c = new Collector(toks);
  c.scan(0, toks.length, new Set());
  return dedupe(c.refs);
}

/**
 * The references of an hcl2json value: strings are templates, arrays and objects are walked (object keys
 * too: `"${local.k}" = …`).
 */
export function referencesInValue(v: unknown): Reference[] {
  const out: Reference[] = [];
  const walk = (x: unknown): void => {
    if (typeof x === "string") out.push(...referencesInTemplate(x));
    else if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === "object") {
      for (const [k, val] of Object.entries(x as Record<string, unknown>)) {
        out.push(...referencesInTemplate(k));
        walk(val);
      }
    }
  };
  walk(v);
  return dedupe(out);
}

function dedupe(refs: Reference[]): Reference[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const k = `${r.kind}\u0000${referenceKey(r)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
