// A fast structural pass over HCL native syntax: finds the top-level blocks (type, labels, UTF-16 offsets,
// 1-based lines) without building values. It understands exactly what can hide a brace: quoted strings
// with `${…}`/`%{…}` templates (nested to any depth), heredocs, and the three comment forms. hcl2json
// (HashiCorp's parser) stays the judge of validity and values; this pass gives positions, which hcl2json
// has none of, and lets big trees skip files cheaply.

import { quotedStringEnd, unquoteHclString } from "../../core/hcl-string.js";

export interface StructuralBlock {
  type: string;
  labels: string[];
  /** Offset of the block type's first character. */
  start: number;
  /** Offset just past the closing brace. */
  end: number;
  /** Offset of the first character inside the body (after `{`). */
  bodyStart: number;
  /** Offset of the closing brace. */
  bodyEnd: number;
  line: number;
  endLine: number;
}

export interface StructuralError {
  line: number;
  column: number;
  message: string;
}

export interface StructuralResult {
  blocks: StructuralBlock[];
  /** Top-level attribute names (rare in Terraform files, legal in HCL). */
  attributes: string[];
  error: StructuralError | null;
}

class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

// HCL identifiers are Unicode (UAX #31 ID_Start / ID_Continue) plus `-`, as hclsyntax scans them.
const IDENT_START = /[\p{ID_Start}_]/u;
const IDENT_CHAR = /[\p{ID_Continue}_-]/u;

export function scanStructure(text: string): StructuralResult {
  const s = new Scanner(text);
  const blocks: StructuralBlock[] = [];
  const attributes: string[] = [];
  try {
    for (;;) {
      s.skipTrivia(true);
      if (s.eof()) break;
      const start = s.pos;
      if (!IDENT_START.test(s.peekChar())) throw new ScanError(s.pos, `Argument or block definition required; unexpected ${describe(s.peek())}`);
      const type = s.identifier();
      const labels: string[] = [];
      for (;;) {
        s.skipTrivia(false);
        const c = s.peek();
        if (c === '"') labels.push(s.quotedLabel());
        else if (IDENT_START.test(s.peekChar())) labels.push(s.identifier());
        else break;
      }
      s.skipTrivia(false);
      const c = s.peek();
      if (c === "{") {
        s.pos++;
        const bodyStart = s.pos;
        s.skipBody();
        const bodyEnd = s.pos - 1;
        blocks.push({ type, labels, start, end: s.pos, bodyStart, bodyEnd, line: s.lineAt(start), endLine: s.lineAt(bodyEnd) });
      } else if (c === "=" && labels.length === 0) {
        s.pos++;
        s.skipExpressionToLineEnd();
        attributes.push(type);
      } else {
        throw new ScanError(s.pos, `Invalid block definition; expected "{" or "=" after ${type}, found ${describe(c)}`);
      }
    }
    return { blocks, attributes, error: null };
  } catch (e) {
    if (!(e instanceof ScanError)) throw e;
    const { line, column } = s.position(e.offset);
    return { blocks, attributes, error: { line, column, message: e.message } };
  }
}

function describe(c: string): string {
  return c === "" ? "end of file" : JSON.stringify(c);
}

class Scanner {
  pos = 0;
  private lineStarts: number[] | null = null;

  constructor(private readonly text: string) {}

  eof(): boolean {
    return this.pos >= this.text.length;
  }

  /** The whole character at the position (a surrogate pair for astral code points). */
  peekChar(): string {
    const cp = this.text.codePointAt(this.pos);
    return cp === undefined ? "" : String.fromCodePoint(cp);
  }

  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? "";
  }

  identifier(): string {
    const start = this.pos;
    while (this.pos < this.text.length && IDENT_CHAR.test(this.peekChar())) this.pos += this.peekChar().length;
    return this.text.slice(start, this.pos);
  }

  /** A block label: a quoted string without templates. Escapes are decoded. */
  quotedLabel(): string {
    const start = this.pos;
    const end = quotedStringEnd(this.text, start);
    if (end === -1) throw new ScanError(start, "Unterminated label string");
    this.pos = end + 1;
    // Decoded as HCL decodes it (\uXXXX, $${ …), so the label matches hcl2json's key.
    return unquoteHclString(this.text.slice(start + 1, end));
  }

  /** Whitespace and comments; newlines too when `newlines` is set. */
  skipTrivia(newlines: boolean): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === " " || c === "\t" || c === "\r" || c === "\uFEFF" || (newlines && c === "\n")) this.pos++;
      else if (c === "#" || (c === "/" && this.peek(1) === "/")) this.skipLineComment();
      else if (c === "/" && this.peek(1) === "*") this.skipBlockComment();
      else break;
    }
  }

  private skipLineComment(): void {
    const nl = this.text.indexOf("\n", this.pos);
    this.pos = nl === -1 ? this.text.length : nl;
  }

  private skipBlockComment(): void {
    const end = this.text.indexOf("*/", this.pos + 2);
    if (end === -1) throw new ScanError(this.pos, "Unterminated comment");
    this.pos = end + 2;
  }

  /** Skips to just past the `}` closing the body whose `{` was consumed. */
  skipBody(): void {
    const open = this.pos - 1;
    let depth = 1;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      switch (c) {
        case "{":
          depth++;
          this.pos++;
          break;
        case "}":
          depth--;
          this.pos++;
          if (depth === 0) return;
          break;
        case '"':
          this.skipString();
          break;
        case "#":
          this.skipLineComment();
          break;
        case "/":
          if (this.peek(1) === "/") this.skipLineComment();
          else if (this.peek(1) === "*") this.skipBlockComment();
          else this.pos++;
          break;
        case "<":
          if (this.peek(1) === "<" && this.heredocAhead()) this.skipHeredoc();
          else this.pos++;
          break;
        default:
          this.pos++;
      }
    }
    throw new ScanError(open, "Unclosed configuration block; there is no closing brace for this block");
  }

  /** A top-level attribute's expression: to the end of the line, through brackets, strings and heredocs. */
  skipExpressionToLineEnd(): void {
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === "\n" && depth === 0) return;
      if (c === "{" || c === "[" || c === "(") depth++;
      else if (c === "}" || c === "]" || c === ")") depth--;
      if (c === '"') this.skipString();
      else if (c === "#" || (c === "/" && this.peek(1) === "/")) this.skipLineComment();
      else if (c === "/" && this.peek(1) === "*") this.skipBlockComment();
      else if (c === "<" && this.peek(1) === "<" && this.heredocAhead()) this.skipHeredoc();
      else this.pos++;
    }
  }

  /** A quoted template string, with nested `${…}` and `%{…}` sequences. */
  skipString(): void {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === "\n") break;
      if (c === "\\") {
        this.pos += 2;
        continue;
      }
      if ((c === "$" || c === "%") && this.peek(1) === "{") {
        this.pos += 2;
        this.skipTemplateExpression();
        continue;
      }
      if ((c === "$" || c === "%") && this.peek(1) === c && this.peek(2) === "{") {
        this.pos += 3; // `$${` and `%%{` are literal text
        continue;
      }
      this.pos++;
    }
    throw new ScanError(start, "Unterminated template string");
  }

  /** Inside `${ … }`: an expression that may hold strings, objects and further templates. */
  private skipTemplateExpression(): void {
    const start = this.pos - 2;
    let depth = 1;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === "{") depth++;
      else if (c === "}") {
        depth--;
        if (depth === 0) {
          this.pos++;
          return;
        }
      } else if (c === '"') {
        this.skipString();
        continue;
      } else if (c === "<" && this.peek(1) === "<" && this.heredocAhead()) {
        this.skipHeredoc();
        continue;
      }
      this.pos++;
    }
    throw new ScanError(start, "Unterminated template interpolation");
  }

  private heredocAhead(): boolean {
    return /^<<-?[A-Za-z_][A-Za-z0-9_-]*[ \t]*\r?\n/.test(this.text.slice(this.pos, this.pos + 80));
  }

  /** `<<EOT` / `<<-EOT` … a line holding only the marker (leading white space allowed). */
  private skipHeredoc(): void {
    const start = this.pos;
    const m = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/.exec(this.text.slice(this.pos, this.pos + 80))!;
    const marker = m[1]!;
    this.pos += m[0].length;
    while (this.pos < this.text.length) {
      let nl = this.text.indexOf("\n", this.pos);
      if (nl === -1) nl = this.text.length;
      const line = this.text.slice(this.pos, nl).replace(/\r$/, "");
      if (line.trim() === marker) {
        // Leave the position at the marker's end so the caller continues on the same line.
        this.pos = this.pos + line.length;
        return;
      }
      this.pos = nl + 1;
    }
    throw new ScanError(start, `Unterminated template string; no closing marker ${marker} for this heredoc`);
  }

  lineAt(offset: number): number {
    return this.position(offset).line;
  }

  position(offset: number): { line: number; column: number } {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }
}
