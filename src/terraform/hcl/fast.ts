// A fast reader for the common subset of HCL native syntax that yields exactly what @cdktn/hcl2json yields
// (blocks as arrays of bodies, literals as JSON, expressions as `${source}`, templates as template text,
// keys sorted as Go's encoding/json sorts them). It is a recogniser, not a second opinion: whatever it is
// not sure of — an unusual construct, anything that might be a syntax error — it refuses ("bails"), and the
// block (or the file) goes to hcl2json, which stays the judge of validity and of every error message.
//
// So the rules below are narrower than HCL's: ASCII identifiers, no `\r`, no template strip markers (`~`),
// no `::` provider functions, no whitespace before `(`, `.` or `[`, heredoc interpolations on one line.
// Each refusal costs speed, never correctness.

import { inputRecord } from "../../core/null-proto.js";
/** Thrown (never escapes this module) when the input leaves the recognised subset. */
class Bail {
  constructor(readonly at: number) {}
}

const enum C {
  TAB = 9,
  NL = 10,
  CR = 13,
  SPACE = 32,
  BANG = 33,
  DQUOTE = 34,
  HASH = 35,
  DOLLAR = 36,
  PERCENT = 37,
  AMP = 38,
  LPAREN = 40,
  RPAREN = 41,
  STAR = 42,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  DOT = 46,
  SLASH = 47,
  D0 = 48,
  D9 = 57,
  COLON = 58,
  LT = 60,
  EQ = 61,
  GT = 62,
  QUESTION = 63,
  UA = 65,
  UE = 69,
  UZ = 90,
  LBRACKET = 91,
  BACKSLASH = 92,
  RBRACKET = 93,
  UNDERSCORE = 95,
  LA = 97,
  LE = 101,
  LZ = 122,
  LBRACE = 123,
  PIPE = 124,
  RBRACE = 125,
  TILDE = 126,
}

function isIdentStart(c: number): boolean {
  return (c >= C.LA && c <= C.LZ) || (c >= C.UA && c <= C.UZ) || c === C.UNDERSCORE;
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= C.D0 && c <= C.D9) || c === C.MINUS;
}
/** Just past the run of character `c` that starts at `i`. */
function runEnd(s: string, i: number, c: number): number {
  while (s.charCodeAt(i) === c) i++;
  return i;
}

function isDigit(c: number): boolean {
  return c >= C.D0 && c <= C.D9;
}

// ---------------------------------------------------------------------------------------------------
// Expression nodes: only as much as the conversion needs. `s`/`e` are the source range (UTF-16 offsets).

type Expr =
  | { k: "num"; s: number; e: number; v: number }
  | { k: "bool"; s: number; e: number; v: boolean }
  | { k: "null"; s: number; e: number }
  | { k: "tmpl"; s: number; e: number; parts: TPart[]; wrap: Expr | null }
  | { k: "tuple"; s: number; e: number; items: Expr[] }
  | { k: "object"; s: number; e: number; items: ObjItem[] }
  | { k: "unary"; s: number; e: number; op: number; x: Expr }
  | { k: "cond"; s: number; e: number; c: Expr; t: Expr; f: Expr }
  | { k: "other"; s: number; e: number };

interface ObjItem {
  key: Expr;
  /** A bare identifier (or keyword) key: its text. */
  ident: string | null;
  value: Expr;
}

type TPart =
  | { t: "lit"; v: string }
  | { t: "interp"; x: Expr }
  | { t: "if"; c: Expr; then: TPart[]; else: TPart[] }
  | { t: "for"; key: string | null; val: string; coll: Expr; body: TPart[] };

/** Flat template tokens before directives are nested. */
type TTok =
  | { t: "lit"; v: string; lineStart: boolean }
  | { t: "interp"; x: Expr; lineStart: boolean }
  | { t: "if"; c: Expr; lineStart: boolean }
  | { t: "for"; key: string | null; val: string; coll: Expr; lineStart: boolean }
  | { t: "else" | "endif" | "endfor"; lineStart: boolean };

// ---------------------------------------------------------------------------------------------------
// Results

export interface FastBlock {
  type: string;
  labels: string[];
  /** Offset of the block type's first character. */
  start: number;
  /** Offset just past the closing brace. */
  end: number;
  bodyStart: number;
  bodyEnd: number;
  /** The converted body; null when the block was not selected or must go to hcl2json. */
  body: Record<string, unknown> | null;
  /** The block is selected but outside the recognised subset (or maybe invalid): hcl2json must read it. */
  needsJudge: boolean;
}

export type FastResult =
  | { ok: true; blocks: FastBlock[] }
  /** The file as a whole must go to hcl2json (top-level attributes, a gross structural problem, `\r`, …). */
  | { ok: false; at: number };

export interface FastOptions {
  /** Which blocks to convert. Unselected blocks are still validated unless `skim` is set. */
  select: (type: string, labels: string[]) => boolean;
  /**
   * Skim: unselected blocks are only skipped over (brace matching through strings, heredocs and comments),
   * not validated. For files that cannot matter beyond their module calls.
   */
  skim?: boolean;
}

export function fastParse(text: string, opts: FastOptions): FastResult {
  const p = new Parser(text);
  try {
    return { ok: true, blocks: p.file(opts) };
  } catch (e) {
    if (e instanceof Bail) return { ok: false, at: e.at };
    throw e;
  }
}

const NOTHING = (): boolean => false;

/**
 * Whether a skim of the whole file (no block selected) gets through: the structural check of `fastParse`
 * with `skim`, keeping nothing (no label is copied out of the text). False: the file needs a real reading.
 */
export function skimsCleanly(text: string): boolean {
  const p = new Parser(text, false);
  try {
    p.file({ select: NOTHING, skim: true });
    return true;
  } catch (e) {
    if (e instanceof Bail) return false;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------

class Parser {
  pos = 0;
  /** End of the last token consumed (expressions end here, before trailing white space). */
  tokEnd = 0;
  readonly n: number;

  /** `keep`: labels outlive the text (copied, shared); false for a structural check that keeps nothing. */
  constructor(
    readonly src: string,
    readonly keep = true,
  ) {
    this.n = src.length;
  }

  bail(at = this.pos): never {
    throw new Bail(at);
  }

  c(offset = 0): number {
    const i = this.pos + offset;
    return i < this.n ? this.src.charCodeAt(i) : -1;
  }

  /** White space and comments; newlines too unless `nl` (newlines significant). Stops before a newline. */
  ws(nl: boolean): void {
    const s = this.src;
    for (;;) {
      const c = this.pos < this.n ? s.charCodeAt(this.pos) : -1;
      if (c === C.SPACE || c === C.TAB) this.pos++;
      else if (c === C.NL) {
        if (nl) return;
        this.pos++;
      } else if (c === C.HASH || (c === C.SLASH && s.charCodeAt(this.pos + 1) === C.SLASH)) {
        const i = s.indexOf("\n", this.pos);
        this.pos = i === -1 ? this.n : i;
      } else if (c === C.SLASH && s.charCodeAt(this.pos + 1) === C.STAR) {
        const i = s.indexOf("*/", this.pos + 2);
        if (i === -1) this.bail();
        this.pos = i + 2;
      } else if (c === C.CR && s.charCodeAt(this.pos + 1) === C.NL) {
        if (nl) return;
        this.pos += 2;
      } else return;
    }
  }

  /** Length of the newline at the position (`\n` or `\r\n`), or 0. */
  newline(): number {
    const c = this.c();
    return c === C.NL ? 1 : c === C.CR && this.c(1) === C.NL ? 2 : 0;
  }

  ident(): string {
    const s = this.src;
    const start = this.pos;
    if (!isIdentStart(this.c())) this.bail();
    let i = start + 1;
    while (i < this.n && isIdentChar(s.charCodeAt(i))) i++;
    // HCL identifiers are Unicode: a non-ASCII letter right after means we do not know where it ends.
    if (i < this.n && s.charCodeAt(i) > 127) this.bail(i);
    this.pos = i;
    this.tokEnd = i;
    return s.slice(start, i);
  }

  // -------------------------------------------------------------------------------------------------
  // File and bodies

  file(opts: FastOptions): FastBlock[] {
    const s = this.src;
    if (s.charCodeAt(0) === 0xfeff) this.bail(0);
    const blocks: FastBlock[] = [];
    for (;;) {
      this.ws(false);
      if (this.pos >= this.n) break;
      const start = this.pos;
      const type = this.ident();
      this.ws(true);
      const labels: string[] = [];
      for (;;) {
        const c = this.c();
        if (c === C.DQUOTE) labels.push(this.label());
        else if (isIdentStart(c)) labels.push(this.identLabel());
        else break;
        this.ws(true);
      }
      // A top-level attribute, or anything else: let hcl2json read the file.
      if (this.c() !== C.LBRACE) this.bail();
      this.pos++;
      const bodyStart = this.pos;
      const selected = opts.select(type, labels);
      let body: Record<string, unknown> | null = null;
      let needsJudge = false;
      if (!selected && opts.skim) {
        this.pos = skipBody(s, bodyStart);
      } else {
        try {
          const b = this.blockBody();
          body = selected ? b : null;
        } catch (e) {
          if (!(e instanceof Bail)) throw e;
          // Outside the subset, or invalid: find the block's end without judging it; hcl2json will.
          this.pos = skipBody(s, bodyStart);
          needsJudge = true;
        }
      }
      const bodyEnd = this.pos - 1;
      this.endOfItem(true);
      blocks.push({ type, labels, start, end: bodyEnd + 1, bodyStart, bodyEnd, body, needsJudge });
    }
    return blocks;
  }

  /** An unquoted block label (`module cdn {`): kept like a quoted one, so it does not hold the file's text. */
  identLabel(): string {
    const id = this.ident();
    return this.keep ? own(id) : id;
  }

  /** A block label: a quoted string without escapes or template sequences. */
  label(): string {
    const s = this.src;
    const start = this.pos + 1;
    let i = start;
    for (;;) {
      if (i >= this.n) this.bail();
      const c = s.charCodeAt(i);
      if (c === C.DQUOTE) break;
      if (c === C.BACKSLASH || c < 32 || c === 127 || ((c === C.DOLLAR || c === C.PERCENT) && s.charCodeAt(i + 1) === C.LBRACE)) this.bail(i);
      i++;
    }
    this.pos = i + 1;
    this.tokEnd = this.pos;
    return this.keep ? own(s.slice(start, i)) : "";
  }

  /**
   * After `{`: either `}` (empty), a single-line block with one attribute, or a newline and a multi-line
   * body up to its `}`. Leaves the position after the `}`.
   */
  blockBody(): Record<string, unknown> {
    this.ws(true);
    const c = this.c();
    if (c === C.RBRACE) {
      this.pos++;
      return inputRecord() as Record<string, unknown>;
    }
    if (this.newline()) {
      const out = this.body();
      if (this.c() !== C.RBRACE) this.bail();
      this.pos++;
      return out;
    }
    // Single-line block: exactly one attribute.
    const name = this.ident();
    this.ws(true);
    if (this.c() !== C.EQ || this.c(1) === C.EQ || this.c(1) === C.GT) this.bail();
    this.pos++;
    this.ws(true);
    const x = this.expr(true);
    this.ws(true);
    if (this.c() !== C.RBRACE) this.bail();
    this.pos++;
    return { [name]: convert(x, this.src) };
  }

  /** Items of a multi-line body, up to (not including) its closing `}`. */
  body(): Record<string, unknown> {
    const keys: string[] = [];
    const vals: unknown[] = [];
    // Blocks keep file order within a key; the object is assembled once the body is read.
    let blocks: BodyBlock[] | null = null;
    for (;;) {
      this.ws(false);
      const c = this.c();
      if (c === C.RBRACE) break;
      if (c === -1) this.bail();
      const name = this.ident();
      this.ws(true);
      const d = this.c();
      if (d === C.EQ && this.c(1) !== C.EQ && this.c(1) !== C.GT) {
        this.pos++;
        this.ws(true);
        const x = this.expr(true);
        if (keys.includes(name)) this.bail(); // "Attribute redefined"
        keys.push(name);
        vals.push(convert(x, this.src));
        this.endOfItem(false);
        continue;
      }
      const labels: string[] = [];
      for (;;) {
        const l = this.c();
        if (l === C.DQUOTE) labels.push(this.label());
        else if (isIdentStart(l)) labels.push(this.identLabel());
        else break;
        this.ws(true);
      }
      if (this.c() !== C.LBRACE) this.bail();
      this.pos++;
      const b = this.blockBody();
      (blocks ??= []).push({ type: name, labels, body: b });
      this.endOfItem(false);
    }
    return assembleBody(blocks, keys, vals, this.pos);
  }

  /** An item ends at a newline (or a line comment's), or the end of the file at the top level. */
  endOfItem(topLevel: boolean): void {
    this.ws(true);
    const nl = this.newline();
    if (nl) {
      this.pos += nl;
      return;
    }
    if (this.c() === -1 && topLevel) return;
    this.bail();
  }

  // -------------------------------------------------------------------------------------------------
  // Expressions. `nl`: newlines end the expression (attribute values, object items).

  expr(nl: boolean): Expr {
    const start = this.pos;
    const first = this.binary(nl);
    this.ws(nl);
    if (this.c() !== C.QUESTION) {
      return first;
    }
    this.pos++;
    this.ws(nl);
    const t = this.expr(nl);
    this.ws(nl);
    if (this.c() !== C.COLON) this.bail();
    this.pos++;
    this.ws(nl);
    const f = this.expr(nl);
    return { k: "cond", s: start, e: this.tokEnd, c: first, t, f };
  }

  /** Operands joined by binary operators (precedence does not change the range or the validity). */
  binary(nl: boolean): Expr {
    const start = this.pos;
    const first = this.unary(nl);
    let any = false;
    for (;;) {
      const save = this.pos;
      this.ws(nl);
      const len = this.binaryOperator();
      if (len === 0) {
        this.pos = save;
        break;
      }
      this.pos += len;
      this.ws(nl);
      this.unary(nl);
      any = true;
    }
    return any ? { k: "other", s: start, e: this.tokEnd } : first;
  }

  /** Length of the binary operator at the position, or 0. */
  binaryOperator(): number {
    const c = this.c();
    const d = this.c(1);
    switch (c) {
      case C.PIPE:
        return d === C.PIPE ? 2 : 0;
      case C.AMP:
        return d === C.AMP ? 2 : 0;
      case C.EQ:
        return d === C.EQ ? 2 : 0;
      case C.BANG:
        return d === C.EQ ? 2 : 0;
      case C.LT:
        if (d === C.LT) this.bail(); // `<<` after an operand: not ours
        return d === C.EQ ? 2 : 1;
      case C.GT:
        return d === C.EQ ? 2 : 1;
      case C.PLUS:
      case C.STAR:
        return 1;
      case C.MINUS:
        return 1;
      case C.SLASH:
        return d === C.SLASH || d === C.STAR ? 0 : 1;
      case C.PERCENT:
        return d === C.LBRACE ? 0 : 1;
      default:
        return 0;
    }
  }

  unary(nl: boolean): Expr {
    const c = this.c();
    if (c === C.MINUS || c === C.BANG) {
      const start = this.pos;
      this.pos++;
      this.tokEnd = this.pos;
      this.ws(nl);
      const x = this.unary(nl);
      return { k: "unary", s: start, e: this.tokEnd, op: c, x };
    }
    return this.postfix();
  }

  /** A primary expression and its traversals (`.attr`, `.0`, `[i]`, `.*`, `[*]`), written without spaces. */
  postfix(): Expr {
    const start = this.pos;
    const base = this.primary();
    let traversed = false;
    for (;;) {
      const c = this.c();
      if (c === C.DOT) {
        const d = this.c(1);
        if (d === C.DOT) break; // `...` after an argument or a for value
        if (d === C.STAR) {
          this.pos += 2;
        } else if (isDigit(d)) {
          this.pos++;
          while (isDigit(this.c())) this.pos++;
          if (isIdentChar(this.c()) || this.c() === C.DOT && isDigit(this.c(1))) this.bail();
        } else if (isIdentStart(d)) {
          this.pos++;
          this.ident();
        } else this.bail();
        this.tokEnd = this.pos;
        traversed = true;
      } else if (c === C.LBRACKET) {
        this.pos++;
        this.ws(false);
        if (this.c() === C.STAR) {
          this.pos++;
          this.ws(false);
        } else {
          this.expr(false);
          this.ws(false);
        }
        if (this.c() !== C.RBRACKET) this.bail();
        this.pos++;
        this.tokEnd = this.pos;
        traversed = true;
      } else break;
    }
    return traversed ? { k: "other", s: start, e: this.tokEnd } : base;
  }

  primary(): Expr {
    const start = this.pos;
    const c = this.c();
    if (isDigit(c)) return this.number();
    if (c === C.DQUOTE) return this.quoted();
    if (c === C.LT && this.c(1) === C.LT) return this.heredoc();
    if (c === C.LPAREN) {
      this.pos++;
      this.ws(false);
      this.expr(false);
      this.ws(false);
      if (this.c() !== C.RPAREN) this.bail();
      this.pos++;
      this.tokEnd = this.pos;
      return { k: "other", s: start, e: this.pos };
    }
    if (c === C.LBRACKET) return this.tuple();
    if (c === C.LBRACE) return this.object();
    if (isIdentStart(c)) {
      const name = this.ident();
      const d = this.c();
      if (d === C.LPAREN) return this.call(start);
      if (d === C.COLON && this.c(1) === C.COLON) this.bail(); // provider::name::function
      if (name === "true" || name === "false") return { k: "bool", s: start, e: this.pos, v: name === "true" };
      if (name === "null") return { k: "null", s: start, e: this.pos };
      return { k: "other", s: start, e: this.pos };
    }
    return this.bail();
  }

  number(): Expr {
    const s = this.src;
    const start = this.pos;
    let i = start;
    while (i < this.n && isDigit(s.charCodeAt(i))) i++;
    if (s.charCodeAt(i) === C.DOT) {
      if (!isDigit(s.charCodeAt(i + 1))) this.bail(i);
      i++;
      while (i < this.n && isDigit(s.charCodeAt(i))) i++;
    }
    const e = s.charCodeAt(i);
    if (e === C.LE || e === C.UE) {
      i++;
      if (s.charCodeAt(i) === C.PLUS || s.charCodeAt(i) === C.MINUS) i++;
      if (!isDigit(s.charCodeAt(i))) this.bail(i);
      while (i < this.n && isDigit(s.charCodeAt(i))) i++;
    }
    if (i < this.n && (isIdentChar(s.charCodeAt(i)) || s.charCodeAt(i) === C.DOT)) this.bail(i);
    const v = Number(s.slice(start, i));
    if (!Number.isFinite(v)) this.bail(start);
    this.pos = i;
    this.tokEnd = i;
    return { k: "num", s: start, e: i, v };
  }

  /** `name(args…)`; the position is at `(`. */
  call(start: number): Expr {
    this.pos++;
    this.ws(false);
    if (this.c() !== C.RPAREN) {
      for (;;) {
        this.expr(false);
        this.ws(false);
        if (this.c() === C.DOT && this.c(1) === C.DOT && this.c(2) === C.DOT) {
          this.pos += 3;
          this.ws(false);
          if (this.c() !== C.RPAREN) this.bail();
          break;
        }
        const c = this.c();
        if (c === C.COMMA) {
          this.pos++;
          this.ws(false);
          if (this.c() === C.RPAREN) break;
          continue;
        }
        if (c === C.RPAREN) break;
        this.bail();
      }
    }
    this.pos++;
    this.tokEnd = this.pos;
    return { k: "other", s: start, e: this.pos };
  }

  /** At `[` or `{`: is the next word the `for` keyword? */
  forAhead(): boolean {
    const save = this.pos;
    this.pos++;
    this.ws(false);
    const s = this.src;
    const is = s.startsWith("for", this.pos) && !isIdentChar(s.charCodeAt(this.pos + 3));
    this.pos = save;
    return is;
  }

  /** `[for k, v in coll : value if cond]` or `{for k, v in coll : key => value... if cond}`. */
  forExpr(object: boolean): Expr {
    const start = this.pos;
    this.pos++;
    this.ws(false);
    this.pos += 3; // for
    this.ws(false);
    this.ident();
    this.ws(false);
    if (this.c() === C.COMMA) {
      this.pos++;
      this.ws(false);
      this.ident();
      this.ws(false);
    }
    if (!this.keyword("in")) this.bail();
    this.ws(false);
    this.expr(false);
    this.ws(false);
    if (this.c() !== C.COLON) this.bail();
    this.pos++;
    this.ws(false);
    this.expr(false);
    this.ws(false);
    if (object) {
      if (this.c() !== C.EQ || this.c(1) !== C.GT) this.bail();
      this.pos += 2;
      this.ws(false);
      this.expr(false);
      this.ws(false);
      if (this.c() === C.DOT && this.c(1) === C.DOT && this.c(2) === C.DOT) {
        this.pos += 3;
        this.ws(false);
      }
    }
    if (this.keyword("if")) {
      this.ws(false);
      this.expr(false);
      this.ws(false);
    }
    if (this.c() !== (object ? C.RBRACE : C.RBRACKET)) this.bail();
    this.pos++;
    this.tokEnd = this.pos;
    return { k: "other", s: start, e: this.pos };
  }

  keyword(word: string): boolean {
    const s = this.src;
    if (s.startsWith(word, this.pos) && !isIdentChar(s.charCodeAt(this.pos + word.length))) {
      if (s.charCodeAt(this.pos + word.length) > 127) this.bail();
      this.pos += word.length;
      this.tokEnd = this.pos;
      return true;
    }
    return false;
  }

  tuple(): Expr {
    if (this.forAhead()) return this.forExpr(false);
    const start = this.pos;
    this.pos++;
    const items: Expr[] = [];
    this.ws(false);
    while (this.c() !== C.RBRACKET) {
      items.push(this.expr(false));
      this.ws(false);
      const c = this.c();
      if (c === C.COMMA) {
        this.pos++;
        this.ws(false);
      } else if (c !== C.RBRACKET) this.bail();
    }
    this.pos++;
    this.tokEnd = this.pos;
    return { k: "tuple", s: start, e: this.pos, items };
  }

  object(): Expr {
    if (this.forAhead()) return this.forExpr(true);
    const start = this.pos;
    this.pos++;
    const items: ObjItem[] = [];
    this.ws(false);
    while (this.c() !== C.RBRACE) {
      const item = this.objectKey();
      this.ws(true);
      const c = this.c();
      if (c === C.EQ && this.c(1) !== C.EQ && this.c(1) !== C.GT) this.pos++;
      else if (c === C.COLON) this.pos++;
      else this.bail();
      this.ws(true);
      const value = this.expr(true);
      items.push({ key: item.key, ident: item.ident, value });
      this.ws(true);
      const d = this.c();
      if (d === C.COMMA) {
        this.pos++;
        this.ws(false);
      } else if (this.newline()) {
        this.ws(false);
      } else if (d !== C.RBRACE) this.bail();
    }
    this.pos++;
    this.tokEnd = this.pos;
    return { k: "object", s: start, e: this.pos, items };
  }

  objectKey(): { key: Expr; ident: string | null } {
    const start = this.pos;
    const c = this.c();
    if (isIdentStart(c)) {
      const name = this.ident();
      if (name === "for") this.bail();
      const d = this.c();
      if (d === C.DOT || d === C.LBRACKET || d === C.LPAREN) this.bail();
      return { key: { k: "other", s: start, e: this.pos }, ident: name };
    }
    if (c === C.DQUOTE) return { key: this.quoted(), ident: null };
    if (c === C.LPAREN) return { key: this.primary(), ident: null };
    if (isDigit(c)) {
      const x = this.number();
      // Only plain integers: cty's number-to-string conversion is exact for them.
      if (!/^(0|[1-9][0-9]*)$/.test(this.src.slice(x.s, x.e))) this.bail(start);
      return { key: x, ident: null };
    }
    return this.bail();
  }

  // -------------------------------------------------------------------------------------------------
  // Templates

  /** A quoted template string; the position is at the opening quote. */
  quoted(): Expr {
    const s = this.src;
    const start = this.pos;
    this.pos++;
    const toks: TTok[] = [];
    let lit = "";
    let litStart = this.pos;
    let hasLit = false;
    const flush = (to: number) => {
      if (to > litStart) lit += s.slice(litStart, to);
      if (lit !== "" || hasLit) toks.push({ t: "lit", v: lit, lineStart: false });
      lit = "";
      hasLit = false;
    };
    for (;;) {
      if (this.pos >= this.n) this.bail();
      const c = s.charCodeAt(this.pos);
      if (c === C.DQUOTE) {
        flush(this.pos);
        this.pos++;
        break;
      }
      if (c === C.NL || c < 32 && c !== C.TAB) this.bail();
      if (c === C.BACKSLASH) {
        lit += s.slice(litStart, this.pos);
        hasLit = true;
        lit += this.escape();
        litStart = this.pos;
        continue;
      }
      if ((c === C.DOLLAR || c === C.PERCENT) && s.charCodeAt(this.pos + 1) === c) {
        if (s.charCodeAt(this.pos + 2) === C.LBRACE) {
          // `$${` / `%%{`: a literal `${` / `%{`.
          lit += s.slice(litStart, this.pos) + (c === C.DOLLAR ? "${" : "%{");
          hasLit = true;
          this.pos += 3;
          litStart = this.pos;
          continue;
        }
        if (s.charCodeAt(this.pos + 2) === c) {
          // A longer run is literal text when no `{` (or escape) follows it; with one, leave the tokenising
          // to HCL. Read here, because HCL's scanner is quadratic in such runs (a 64k run took minutes).
          const end = runEnd(s, this.pos, c);
          const next = s.charCodeAt(end);
          if (next === C.LBRACE || next === C.BACKSLASH) this.bail();
          this.pos = end;
          continue;
        }
        this.pos += 2;
        continue;
      }
      if ((c === C.DOLLAR || c === C.PERCENT) && s.charCodeAt(this.pos + 1) === C.LBRACE) {
        flush(this.pos);
        this.sequence(c, toks, false);
        litStart = this.pos;
        continue;
      }
      this.pos++;
    }
    this.tokEnd = this.pos;
    return makeTemplate(toks, start, this.pos, false);
  }

  /** A backslash escape in a quoted string; returns the decoded text. */
  escape(): string {
    const s = this.src;
    const d = s.charCodeAt(this.pos + 1);
    this.pos += 2;
    switch (d) {
      case 110: // n
        return "\n";
      case 114: // r
        return "\r";
      case 116: // t
        return "\t";
      case C.DQUOTE:
        return '"';
      case C.BACKSLASH:
        return "\\";
      case 117: // u
      case 85: {
        // U
        const len = d === 117 ? 4 : 8;
        const hex = s.slice(this.pos, this.pos + len);
        if (!new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) this.bail();
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.bail();
        this.pos += len;
        return String.fromCodePoint(cp);
      }
      default:
        return this.bail();
    }
  }

  /** `${ expr }` or `%{ directive }`; the position is at `$`/`%`. */
  sequence(kind: number, toks: TTok[], lineStart: boolean): void {
    this.pos += 2;
    if (this.c() === C.TILDE) this.bail();
    this.ws(false);
    if (kind === C.DOLLAR) {
      const x = this.expr(false);
      this.ws(false);
      if (this.c() !== C.RBRACE) this.bail();
      this.pos++;
      toks.push({ t: "interp", x, lineStart });
      return;
    }
    const word = this.ident();
    this.ws(false);
    switch (word) {
      case "if": {
        const c = this.expr(false);
        this.ws(false);
        toks.push({ t: "if", c, lineStart });
        break;
      }
      case "for": {
        let val = this.ident();
        let key: string | null = null;
        this.ws(false);
        if (this.c() === C.COMMA) {
          this.pos++;
          this.ws(false);
          key = val;
          val = this.ident();
          this.ws(false);
        }
        if (!this.keyword("in")) this.bail();
        this.ws(false);
        const coll = this.expr(false);
        this.ws(false);
        toks.push({ t: "for", key, val, coll, lineStart });
        break;
      }
      case "else":
      case "endif":
      case "endfor":
        toks.push({ t: word, lineStart });
        break;
      default:
        this.bail();
    }
    if (this.c() === C.TILDE || this.c() !== C.RBRACE) this.bail();
    this.pos++;
  }

  /** `<<EOT` / `<<-EOT` … closing marker alone on its line. The position is at `<<`. */
  heredoc(): Expr {
    const s = this.src;
    const start = this.pos;
    this.pos += 2;
    const flush = this.c() === C.MINUS;
    if (flush) this.pos++;
    const marker = this.ident();
    if (this.c() !== C.NL) this.bail();
    this.pos++;
    const toks: TTok[] = [];
    for (;;) {
      if (this.pos >= this.n) this.bail();
      let eol = s.indexOf("\n", this.pos);
      if (eol === -1) this.bail(); // the closing marker must end with a newline, and so must content lines
      const line = s.slice(this.pos, eol);
      if (line.trim() === marker && /^[ \t]*[A-Za-z_][A-Za-z0-9_-]*[ \t]*$/.test(line)) {
        // Leave the position at the end of the marker's line, before its newline.
        this.pos = eol;
        this.tokEnd = this.pos - (line.length - line.trimEnd().length);
        break;
      }
      // One line of template: literals and sequences that close on this line.
      let litStart = this.pos;
      let lit = "";
      let first = true;
      const push = (v: string) => {
        toks.push({ t: "lit", v, lineStart: first });
        first = false;
      };
      while (this.pos <= eol) {
        const c = s.charCodeAt(this.pos);
        if (c < 32 && c !== C.TAB && c !== C.NL) this.bail();
        if ((c === C.DOLLAR || c === C.PERCENT) && s.charCodeAt(this.pos + 1) === c) {
          if (s.charCodeAt(this.pos + 2) === C.LBRACE) {
            lit += s.slice(litStart, this.pos) + (c === C.DOLLAR ? "${" : "%{");
            this.pos += 3;
            litStart = this.pos;
            continue;
          }
          if (s.charCodeAt(this.pos + 2) === c) {
            // As in quoted strings: a run no `{` follows is literal text.
            const end = runEnd(s, this.pos, c);
            if (s.charCodeAt(end) === C.LBRACE) this.bail();
            this.pos = end;
            continue;
          }
          this.pos += 2;
          continue;
        }
        if ((c === C.DOLLAR || c === C.PERCENT) && s.charCodeAt(this.pos + 1) === C.LBRACE) {
          lit += s.slice(litStart, this.pos);
          if (lit !== "") push(lit);
          lit = "";
          this.sequence(c, toks, first);
          first = false;
          if (this.pos > eol) this.bail(); // a sequence across lines
          litStart = this.pos;
          continue;
        }
        this.pos++;
      }
      lit += s.slice(litStart, eol + 1);
      push(lit);
      this.pos = eol + 1;
    }
    if (flush) flushHeredoc(toks);
    return makeTemplate(toks, start, this.tokEnd, true);
  }
}

// ---------------------------------------------------------------------------------------------------
// Structural skipping (for unselected blocks in skim mode, and to find the end of a block we bail on).

const SKIP_INTERESTING = /[{}"#/<]/g;

/** Offset just past the `}` that closes the body starting at `from` (after its `{`); bails when unsure. */
export function skipBody(s: string, from: number): number {
  let depth = 1;
  let i = from;
  const re = SKIP_INTERESTING;
  for (;;) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) throw new Bail(from);
    i = m.index;
    const c = s.charCodeAt(i);
    switch (c) {
      case C.LBRACE:
        depth++;
        i++;
        break;
      case C.RBRACE:
        depth--;
        i++;
        if (depth === 0) return i;
        break;
      case C.DQUOTE:
        i = skipString(s, i);
        break;
      case C.HASH: {
        const nl = s.indexOf("\n", i);
        i = nl === -1 ? s.length : nl;
        break;
      }
      case C.SLASH: {
        const d = s.charCodeAt(i + 1);
        if (d === C.SLASH) {
          const nl = s.indexOf("\n", i);
          i = nl === -1 ? s.length : nl;
        } else if (d === C.STAR) {
          const end = s.indexOf("*/", i + 2);
          if (end === -1) throw new Bail(i);
          i = end + 2;
        } else i++;
        break;
      }
      case C.LT:
        if (s.charCodeAt(i + 1) === C.LT) i = skipHeredoc(s, i);
        else i++;
        break;
      default:
        i++;
    }
  }
}

/** Past the closing quote of a quoted template (through nested `${…}` with strings inside). */
function skipString(s: string, at: number): number {
  let i = at + 1;
  for (;;) {
    if (i >= s.length) throw new Bail(at);
    const c = s.charCodeAt(i);
    if (c === C.DQUOTE) return i + 1;
    if (c === C.NL) throw new Bail(at);
    if (c === C.BACKSLASH) {
      i += 2;
      continue;
    }
    if ((c === C.DOLLAR || c === C.PERCENT) && s.charCodeAt(i + 1) === c && s.charCodeAt(i + 2) === C.LBRACE) {
      i += 3;
      continue;
    }
    if ((c === C.DOLLAR || c === C.PERCENT) && s.charCodeAt(i + 1) === C.LBRACE) {
      i = skipSequence(s, i + 2);
      continue;
    }
    i++;
  }
}

/** Inside `${`/`%{` (after the brace): past the matching `}`. */
function skipSequence(s: string, from: number): number {
  let depth = 1;
  let i = from;
  for (;;) {
    if (i >= s.length) throw new Bail(from);
    const c = s.charCodeAt(i);
    if (c === C.LBRACE) depth++;
    else if (c === C.RBRACE) {
      if (--depth === 0) return i + 1;
    } else if (c === C.DQUOTE) {
      i = skipString(s, i);
      continue;
    } else if (c === C.LT && s.charCodeAt(i + 1) === C.LT) {
      i = skipHeredoc(s, i);
      continue;
    }
    i++;
  }
}

const HEREDOC_OPEN = /<<-?([A-Za-z_][A-Za-z0-9_-]*)\n/y;

function skipHeredoc(s: string, at: number): number {
  HEREDOC_OPEN.lastIndex = at;
  const m = HEREDOC_OPEN.exec(s);
  if (!m) {
    // `<<` that does not open a heredoc (e.g. inside a string it is not ours anyway): be unsure.
    if (/^<<-?[A-Za-z_]/.test(s.slice(at, at + 4))) throw new Bail(at);
    return at + 2;
  }
  const marker = m[1]!;
  let i = at + m[0].length;
  for (;;) {
    const nl = s.indexOf("\n", i);
    if (nl === -1) throw new Bail(at);
    const line = s.slice(i, nl);
    if (line.length < marker.length + 40 && line.trim() === marker) return nl;
    i = nl + 1;
  }
}

// ---------------------------------------------------------------------------------------------------
// Templates: nesting directives, heredoc flush, conversion.

function flushHeredoc(toks: TTok[]): void {
  let min = Number.MAX_SAFE_INTEGER;
  const adjust: { t: "lit"; v: string; lineStart: boolean }[] = [];
  for (const tok of toks) {
    if (!tok.lineStart) continue;
    if (tok.t !== "lit") {
      min = 0;
      continue;
    }
    const v = tok.v;
    let i = 0;
    while (i < v.length && (v.charCodeAt(i) === C.SPACE || v.charCodeAt(i) === C.TAB)) i++;
    const next = v.charCodeAt(i);
    // Other Unicode white space would count as a grapheme cluster each: not ours.
    if (next > 127 && /\s/.test(v[i]!)) throw new Bail(0);
    if (i === v.length - 1 && next === C.NL) continue; // a blank line does not count
    // (White space followed by a sequence on the same line does count.)
    if (i < min) min = i;
    adjust.push(tok as { t: "lit"; v: string; lineStart: boolean });
  }
  if (min === Number.MAX_SAFE_INTEGER || min === 0) return;
  for (const tok of adjust) tok.v = tok.v.slice(min);
}

function makeTemplate(toks: TTok[], s: number, e: number, heredoc: boolean): Expr {
  // Meld consecutive literals.
  const melded: TTok[] = [];
  for (const t of toks) {
    const prev = melded[melded.length - 1];
    if (t.t === "lit" && prev && prev.t === "lit") melded[melded.length - 1] = { t: "lit", v: prev.v + t.v, lineStart: prev.lineStart };
    else melded.push(t);
  }
  if (!heredoc && melded.length === 1 && melded[0]!.t === "interp") {
    return { k: "tmpl", s, e, parts: [], wrap: (melded[0] as { x: Expr }).x };
  }
  let i = 0;
  const nest = (until: "top" | "if" | "for"): { parts: TPart[]; end: string } => {
    const parts: TPart[] = [];
    while (i < melded.length) {
      const t = melded[i++]!;
      switch (t.t) {
        case "lit":
          parts.push({ t: "lit", v: t.v });
          break;
        case "interp":
          parts.push({ t: "interp", x: t.x });
          break;
        case "if": {
          const then = nest("if");
          let els: TPart[] = [];
          if (then.end === "else") {
            const e2 = nest("if");
            if (e2.end !== "endif") throw new Bail(s);
            els = e2.parts;
          } else if (then.end !== "endif") throw new Bail(s);
          parts.push({ t: "if", c: t.c, then: then.parts, else: els });
          break;
        }
        case "for": {
          const body = nest("for");
          if (body.end !== "endfor") throw new Bail(s);
          parts.push({ t: "for", key: t.key, val: t.val, coll: t.coll, body: body.parts });
          break;
        }
        case "else":
          if (until !== "if") throw new Bail(s);
          return { parts, end: "else" };
        case "endif":
          if (until !== "if") throw new Bail(s);
          return { parts, end: "endif" };
        case "endfor":
          if (until !== "for") throw new Bail(s);
          return { parts, end: "endfor" };
      }
    }
    if (until !== "top") throw new Bail(s);
    return { parts, end: "" };
  };
  return { k: "tmpl", s, e, parts: nest("top").parts, wrap: null };
}

/** Literal text as hcl2json writes it: template sequences escaped again, as Terraform's JSON syntax needs. */
function reescape(v: string): string {
  if (v.indexOf("{") === -1) return v;
  const last = v.charCodeAt(v.length - 1);
  if (last === C.DOLLAR || last === C.PERCENT) throw new Bail(0);
  return v.replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{");
}

function rangeSource(x: { s: number; e: number }, src: string): string {
  // hcl2json's quirk: a range followed directly by `)` takes the parenthesis too.
  return src.slice(x.s, src.charCodeAt(x.e) === C.RPAREN ? x.e + 1 : x.e);
}

function wrap(x: { s: number; e: number }, src: string): string {
  return "${" + rangeSource(x, src) + "}";
}

/**
 * A copy of a string that does not keep the file's text alive. V8 makes substrings of 13 characters and
 * more "sliced strings" that point into their parent, and concatenations "cons strings" that point to their
 * parts: a value kept from a 50 KB file would keep all 50 KB. Slicing a fresh concatenation flattens it
 * into a new string first, so the result points only to its own copy.
 */
function own(s: string): string {
  if (s.length > 96) return (" " + s).slice(1);
  // Values repeat a lot across a tree (`${var.zone_id}`, "block", rule ids): keep one copy of each.
  let t = recent.get(s);
  if (t === undefined) {
    t = s.length < 13 ? s : (" " + s).slice(1);
    if (recent.size >= 200_000) recent.clear();
    recent.set(t, t);
  }
  return t;
}
const recent = new Map<string, string>();

/** hcl2json's convertExpression. */
function convert(x: Expr, src: string): unknown {
  switch (x.k) {
    case "num":
    case "bool":
      return x.v;
    case "null":
      return null;
    case "unary":
      if (x.op === C.MINUS && x.x.k === "num") return x.x.v === 0 ? 0 : -x.x.v;
      if (x.op === C.BANG && x.x.k === "bool") return !x.x.v;
      if (x.x.k === "num" || x.x.k === "bool" || x.x.k === "null") throw new Bail(x.s); // an invalid operand
      return own(wrap(x, src));
    case "tmpl":
      if (x.wrap) return convert(x.wrap, src);
      return own(templateText(x.parts, src));
    case "tuple":
      return x.items.map((i) => convert(i, src));
    case "object": {
      const keys: string[] = [];
      const vals: unknown[] = [];
      for (const item of x.items) {
        keys.push(item.ident ?? keyText(item.key, src));
        vals.push(convert(item.value, src));
      }
      return sortedObject(keys, vals);
    }
    default:
      return own(wrap(x, src));
  }
}

function keyText(k: Expr, src: string): string {
  switch (k.k) {
    case "num":
      return src.slice(k.s, k.e);
    case "tmpl":
      return k.wrap ? stringPart(k.wrap, src) : templateText(k.parts, src);
    default:
      return wrap(k, src);
  }
}

function templateText(parts: TPart[], src: string): string {
  if (parts.length === 0) return "";
  let out = "";
  for (const p of parts) out += partText(p, src);
  return out;
}

function partText(p: TPart, src: string): string {
  switch (p.t) {
    case "lit":
      return reescape(p.v);
    case "interp":
      return stringPart(p.x, src);
    case "if": {
      const f = templateText(p.else, src);
      return "%{if " + rangeSource(p.c, src) + "}" + templateText(p.then, src) + (f.length > 0 ? "%{else}" + f : "") + "%{endif}";
    }
    case "for":
      return "%{for " + (p.key !== null ? p.key + ", " : "") + p.val + " in " + rangeSource(p.coll, src) + "}" + templateText(p.body, src) + "%{endfor}";
  }
}

/** hcl2json's convertStringPart: an expression inside a template. */
function stringPart(x: Expr, src: string): string {
  switch (x.k) {
    case "num": {
      // cty prints the exact decimal written; JavaScript the shortest double: equal for short numbers only.
      const t = String(x.v);
      if (/[eE]/.test(t) || x.e - x.s > 15 || t !== src.slice(x.s, x.e)) throw new Bail(x.s);
      return t;
    }
    case "bool":
      return x.v ? "true" : "false";
    case "tmpl":
      return x.wrap ? stringPart(x.wrap, src) : templateText(x.parts, src);
    case "cond": {
      const f = stringPart(x.f, src);
      return "%{if " + rangeSource(x.c, src) + "}" + stringPart(x.t, src) + (f.length > 0 ? "%{else}" + f : "") + "%{endif}";
    }
    case "null":
      throw new Bail(x.s);
    default:
      return wrap(x, src);
  }
}

/** Keys in Go's order (bytewise); integer-like keys then follow JavaScript's own ordering, as JSON.parse does. */
function sortedObject(keys: string[], vals: unknown[]): Record<string, unknown> {
  const n = keys.length;
  let order: number[] | null = null;
  for (let i = 1; i < n; i++) {
    if (keys[i - 1]! >= keys[i]!) {
      order = sortedOrder(keys);
      break;
    }
  }
  // No prototype: attribute names and labels such as `toString` or `constructor` are data (issue 18 §1).
  const out: Record<string, unknown> = inputRecord();
  for (let i = 0; i < n; i++) {
    const j = order ? order[i]! : i;
    const k = keys[j]!;
    if (k === "__proto__") throw new Bail(0);
    out[k] = vals[j];
  }
  return out;
}

/** Indices of `keys` in bytewise order, stable (a duplicate key's later value wins, as in hcl2json). */
function sortedOrder(keys: string[]): number[] {
  const n = keys.length;
  for (let i = 0; i < n; i++) if (!isAscii(keys[i]!)) throw new Bail(0);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n > 24) return order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
  // Insertion sort: bodies are small.
  for (let i = 1; i < n; i++) {
    const x = order[i]!;
    const k = keys[x]!;
    let j = i - 1;
    while (j >= 0 && keys[order[j]!]! > k) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = x;
  }
  return order;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

interface BodyBlock {
  type: string;
  labels: string[];
  body: Record<string, unknown>;
}

/** hcl2json's convertBody: blocks first (nested by labels, arrays of bodies), then attributes over them. */
function assembleBody(blocks: BodyBlock[] | null, attrKeys: string[], attrVals: unknown[], at: number): Record<string, unknown> {
  if (!blocks) return sortedObject(attrKeys, attrVals);
  const top = new Map<string, unknown>();
  for (const b of blocks) {
    let level: Map<string, unknown> = top;
    let key = b.type;
    for (const label of b.labels) {
      const cur = level.get(key);
      if (cur === undefined) {
        const next = new Map<string, unknown>();
        level.set(key, next);
        level = next;
      } else if (cur instanceof Map) level = cur;
      else throw new Bail(at); // hcl2json refuses a block type used with different label counts
      key = label;
    }
    const cur = level.get(key);
    if (cur === undefined) level.set(key, [b.body]);
    else if (Array.isArray(cur)) cur.push(b.body);
    else throw new Bail(at);
  }
  for (let i = 0; i < attrKeys.length; i++) top.set(attrKeys[i]!, attrVals[i]);
  return mapToObject(top);
}

function mapToObject(m: Map<string, unknown>): Record<string, unknown> {
  const keys: string[] = [];
  const vals: unknown[] = [];
  for (const [k, v] of m) {
    keys.push(k);
    vals.push(v instanceof Map ? mapToObject(v) : v);
  }
  return sortedObject(keys, vals);
}

/**
 * True when hcl2json would refuse the file's block shapes: one block type (or label path) used both with
 * and without further labels, e.g. `b "x" {}` and `b {}`, or `resource "a" "b"` and `resource "a"`.
 */
export function labelShapesConflict(blocks: { type: string; labels: string[] }[]): boolean {
  // Only a block type used with different numbers of labels can conflict.
  const counts = new Map<string, number>();
  let mixed = false;
  for (const b of blocks) {
    const n = counts.get(b.type);
    if (n === undefined) counts.set(b.type, b.labels.length);
    else if (n !== b.labels.length) {
      mixed = true;
      break;
    }
  }
  if (!mixed) return false;
  // For each key path: 0 = holds bodies, 1 = holds labels.
  const kinds = new Map<string, 0 | 1>();
  for (const b of blocks) {
    let key = b.type;
    for (const label of b.labels) {
      const k = kinds.get(key);
      if (k === 0) return true;
      if (k === undefined) kinds.set(key, 1);
      key += "\u0000" + label;
    }
    if (kinds.get(key) === 1) return true;
    kinds.set(key, 0);
  }
  return false;
}

/** Same assembly for the top level of a file, from blocks in file order. */
export function assembleTopLevel(blocks: BodyBlock[]): Record<string, unknown> | null {
  try {
    return assembleBody(blocks, [], [], 0);
  } catch (e) {
    if (e instanceof Bail) return null;
    throw e;
  }
}
