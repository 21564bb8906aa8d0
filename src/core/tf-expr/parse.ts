// A parser for Terraform's expression syntax (HCL native expressions and string templates), as hcl2json
// hands them over: an attribute written as an expression arrives as `${…}` text, a quoted string as its
// template source. The tree is evaluated by ./evaluate.ts over values known offline. Pure: no I/O.
//
// Covered: literals, quoted templates with `${…}` (and the `$${` escape), tuples, objects, references and
// traversals (`.attr`, `[index]`, `[*]`, `.*`), function calls (with `...` expansion), unary and binary
// operators with HCL's precedence, conditionals, and `for` expressions. Template directives (`%{…}`) and
// heredocs are parsed as `unsupported`: their value is reported unknown, never guessed.

export type Expr =
  | { kind: "literal"; value: string | number | boolean | null }
  | { kind: "template"; parts: (string | Expr)[] }
  | { kind: "tuple"; items: Expr[] }
  | { kind: "object"; items: { key: Expr; value: Expr }[] }
  | { kind: "root"; name: string }
  | { kind: "attr"; target: Expr; name: string }
  | { kind: "index"; target: Expr; key: Expr }
  | { kind: "splat"; target: Expr; each: Expr }
  | { kind: "splatItem" }
  | { kind: "call"; name: string; args: Expr[]; expand: boolean }
  | { kind: "unary"; op: "!" | "-"; operand: Expr }
  | { kind: "binary"; op: string; left: Expr; right: Expr }
  | { kind: "conditional"; cond: Expr; then: Expr; else: Expr }
  | {
      kind: "for";
      keyVar: string | null;
      valueVar: string;
      collection: Expr;
      keyExpr: Expr | null;
      valueExpr: Expr;
      cond: Expr | null;
      grouping: boolean;
    }
  | { kind: "unsupported"; text: string; why: string };

export class ExprSyntaxError extends Error {}

type Tok =
  | { t: "num"; v: number }
  | { t: "ident"; v: string }
  | { t: "str"; parts: (string | Expr)[] }
  | { t: "op"; v: string }
  | { t: "heredoc"; text: string }
  | { t: "eof" };

const OPS = ["...", "=>", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "!", "?", ":", ".", ",", "[", "]", "(", ")", "{", "}", "="];

/** Parses the source of one expression (`var.x`, `lookup(each.value, "k", null)`). */
export function parseExpression(src: string): Expr {
  const p = new Parser(src);
  const e = p.expression();
  p.expectEnd();
  return e;
}

/**
 * Parses a template (the contents of a quoted string, or what hcl2json gives for one): literal text with
 * `${…}` interpolations. A directive (`%{…}`) makes the whole template `unsupported`.
 */
export function parseTemplate(src: string): Expr {
  const parts = templateParts(src, 0, null).parts;
  return { kind: "template", parts };
}

/**
 * Reads template text from `start` until `quote` (a closing `"`) or the end of `src`; returns the parts and
 * the index after the closing quote.
 */
function templateParts(src: string, start: number, quote: '"' | null): { parts: (string | Expr)[]; end: number } {
  const parts: (string | Expr)[] = [];
  let text = "";
  let i = start;
  const flush = () => {
    if (text !== "") parts.push(text);
    text = "";
  };
  while (i < src.length) {
    const c = src[i]!;
    if (quote && c === quote) {
      flush();
      return { parts, end: i + 1 };
    }
    if (quote && c === "\\") {
      const n = src[i + 1];
      const esc: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\" };
      if (n !== undefined && n in esc) {
        text += esc[n];
        i += 2;
        continue;
      }
      if (n === "u" || n === "U") {
        const len = n === "u" ? 4 : 8;
        const hex = src.slice(i + 2, i + 2 + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw new ExprSyntaxError(`bad unicode escape at offset ${i}`);
        text += String.fromCodePoint(parseInt(hex, 16));
        i += 2 + len;
        continue;
      }
      throw new ExprSyntaxError(`unsupported escape \\${n ?? ""} at offset ${i}`);
    }
    if ((c === "$" || c === "%") && src[i + 1] === c && src[i + 2] === "{") {
      text += `${c}{`;
      i += 3;
      continue;
    }
    if (c === "%" && src[i + 1] === "{") {
      const close = matchingBrace(src, i + 1);
      return { parts: [{ kind: "unsupported", text: src, why: "template directives (%{…}) are not evaluated" }], end: quote ? skipToQuote(src, close + 1) : src.length };
    }
    if (c === "$" && src[i + 1] === "{") {
      flush();
      const close = matchingBrace(src, i + 1);
      const inner = src.slice(i + 2, close).replace(/^~/, "").replace(/~$/, "");
      parts.push(parseExpression(inner));
      i = close + 1;
      continue;
    }
    text += c;
    i++;
  }
  if (quote) throw new ExprSyntaxError("unterminated string");
  flush();
  return { parts, end: i };
}

function skipToQuote(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    if (src[i] === "\\") i++;
    else if (src[i] === '"') return i + 1;
  }
  throw new ExprSyntaxError("unterminated string");
}

/** Index of the `}` closing the `{` at `open`, skipping nested braces and quoted strings. */
function matchingBrace(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"') {
      i = skipToQuote(src, i + 1) - 1;
    } else if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw new ExprSyntaxError(`unbalanced "{" at offset ${open}`);
}

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "#" || (c === "/" && src[i + 1] === "/")) {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) throw new ExprSyntaxError("unterminated comment");
      i = end + 2;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i))!;
      out.push({ t: "num", v: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i))!;
      // `a-b` lexes as one identifier in HCL only when it is one; `x-1` in an expression is subtraction.
      let word = m[0];
      while (word.endsWith("-")) word = word.slice(0, -1);
      out.push({ t: "ident", v: word });
      i += word.length;
    } else if (c === '"') {
      const { parts, end } = templateParts(src, i + 1, '"');
      out.push({ t: "str", parts });
      i = end;
    } else if (c === "<" && src[i + 1] === "<") {
      out.push({ t: "heredoc", text: src.slice(i) });
      i = src.length;
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (!op) throw new ExprSyntaxError(`unexpected character ${JSON.stringify(c)} at offset ${i}`);
      out.push({ t: "op", v: op });
      i += op.length;
    }
  }
  out.push({ t: "eof" });
  return out;
}

const BINARY_LEVELS: string[][] = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];

class Parser {
  private toks: Tok[];
  private pos = 0;
  constructor(src: string) {
    this.toks = lex(src);
  }

  private peek(): Tok {
    return this.toks[this.pos]!;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === "op" && t.v === v;
  }
  private isIdent(v: string): boolean {
    const t = this.peek();
    return t.t === "ident" && t.v === v;
  }
  private eat(v: string): void {
    if (!this.isOp(v)) throw new ExprSyntaxError(`expected "${v}"`);
    this.pos++;
  }
  private ident(): string {
    const t = this.peek();
    if (t.t !== "ident") throw new ExprSyntaxError("expected a name");
    this.pos++;
    return t.v;
  }

  expectEnd(): void {
    if (this.peek().t !== "eof") throw new ExprSyntaxError("unexpected trailing input");
  }

  expression(): Expr {
    const cond = this.binary(0);
    if (!this.isOp("?")) return cond;
    this.pos++;
    const then = this.expression();
    this.eat(":");
    const otherwise = this.expression();
    return { kind: "conditional", cond, then, else: otherwise };
  }

  private binary(level: number): Expr {
    if (level >= BINARY_LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.peek();
      if (t.t !== "op" || !BINARY_LEVELS[level]!.includes(t.v)) return left;
      this.pos++;
      left = { kind: "binary", op: t.v, left, right: this.binary(level + 1) };
    }
  }

  private unary(): Expr {
    if (this.isOp("!") || this.isOp("-")) {
      const op = (this.toks[this.pos++] as { v: "!" | "-" }).v;
      return { kind: "unary", op, operand: this.unary() };
    }
    return this.postfix(this.primary());
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      if (this.isOp(".")) {
        this.pos++;
        if (this.isOp("*")) {
          this.pos++;
          return { kind: "splat", target: e, each: this.splatTail() };
        }
        const t = this.peek();
        if (t.t === "num") {
          this.pos++;
          e = { kind: "index", target: e, key: { kind: "literal", value: t.v } };
        } else e = { kind: "attr", target: e, name: this.ident() };
      } else if (this.isOp("[")) {
        this.pos++;
        if (this.isOp("*")) {
          this.pos++;
          this.eat("]");
          return { kind: "splat", target: e, each: this.splatTail() };
        }
        const key = this.expression();
        this.eat("]");
        e = { kind: "index", target: e, key };
      } else return e;
    }
  }

  /** The traversal after a splat, applied to each element. */
  private splatTail(): Expr {
    let e: Expr = { kind: "splatItem" };
    for (;;) {
      if (this.isOp(".") && this.toks[this.pos + 1]?.t === "ident") {
        this.pos++;
        e = { kind: "attr", target: e, name: this.ident() };
      } else if (this.isOp("[") && !(this.toks[this.pos + 1]?.t === "op" && (this.toks[this.pos + 1] as { v: string }).v === "*")) {
        this.pos++;
        const key = this.expression();
        this.eat("]");
        e = { kind: "index", target: e, key };
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.peek();
    switch (t.t) {
      case "num":
        this.pos++;
        return { kind: "literal", value: t.v };
      case "str":
        this.pos++;
        if (t.parts.length === 0) return { kind: "literal", value: "" };
        if (t.parts.length === 1 && typeof t.parts[0] === "string") return { kind: "literal", value: t.parts[0] };
        return { kind: "template", parts: t.parts };
      case "heredoc":
        this.pos++;
        return { kind: "unsupported", text: t.text, why: "heredoc strings inside expressions are not evaluated" };
      case "ident": {
        this.pos++;
        if (t.v === "true" || t.v === "false") return { kind: "literal", value: t.v === "true" };
        if (t.v === "null") return { kind: "literal", value: null };
        if (this.isOp("(")) return this.call(t.v);
        return { kind: "root", name: t.v };
      }
      case "op":
        if (t.v === "(") {
          this.pos++;
          const e = this.expression();
          this.eat(")");
          return e;
        }
        if (t.v === "[") return this.tupleOrFor();
        if (t.v === "{") return this.objectOrFor();
        throw new ExprSyntaxError(`unexpected "${t.v}"`);
      case "eof":
        throw new ExprSyntaxError("unexpected end of expression");
    }
  }

  private call(name: string): Expr {
    // Provider-defined functions (`provider::x::f`) are not supported offline.
    this.eat("(");
    const args: Expr[] = [];
    let expand = false;
    while (!this.isOp(")")) {
      args.push(this.expression());
      if (this.isOp("...")) {
        this.pos++;
        expand = true;
      }
      if (this.isOp(",")) this.pos++;
      else break;
    }
    this.eat(")");
    return { kind: "call", name, args, expand };
  }

  private tupleOrFor(): Expr {
    this.eat("[");
    if (this.isIdent("for")) return this.forExpr("]");
    const items: Expr[] = [];
    while (!this.isOp("]")) {
      items.push(this.expression());
      if (this.isOp(",")) this.pos++;
      else break;
    }
    this.eat("]");
    return { kind: "tuple", items };
  }

  private objectOrFor(): Expr {
    this.eat("{");
    if (this.isIdent("for")) return this.forExpr("}");
    const items: { key: Expr; value: Expr }[] = [];
    while (!this.isOp("}")) {
      const k = this.peek();
      // A bare name is a literal key; anything else (a string, `(expr)`) is an expression.
      let key: Expr;
      if (k.t === "ident" && this.toks[this.pos + 1]?.t === "op" && ["=", ":"].includes((this.toks[this.pos + 1] as { v: string }).v)) {
        this.pos++;
        key = { kind: "literal", value: k.v };
      } else key = this.expression();
      if (this.isOp("=") || this.isOp(":")) this.pos++;
      else throw new ExprSyntaxError('expected "=" in object');
      items.push({ key, value: this.expression() });
      if (this.isOp(",")) this.pos++;
    }
    this.eat("}");
    return { kind: "object", items };
  }

  private forExpr(close: "]" | "}"): Expr {
    this.pos++; // for
    let keyVar: string | null = null;
    let valueVar = this.ident();
    if (this.isOp(",")) {
      this.pos++;
      keyVar = valueVar;
      valueVar = this.ident();
    }
    if (!this.isIdent("in")) throw new ExprSyntaxError('expected "in"');
    this.pos++;
    const collection = this.expression();
    this.eat(":");
    let keyExpr: Expr | null = null;
    let valueExpr = this.expression();
    if (close === "}") {
      this.eat("=>");
      keyExpr = valueExpr;
      valueExpr = this.expression();
    }
    let grouping = false;
    if (this.isOp("...")) {
      this.pos++;
      grouping = true;
    }
    let cond: Expr | null = null;
    if (this.isIdent("if")) {
      this.pos++;
      cond = this.expression();
    }
    this.eat(close);
    return { kind: "for", keyVar, valueVar, collection, keyExpr, valueExpr, cond, grouping };
  }
}
