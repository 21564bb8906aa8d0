// A small JSON reader that also records the line of every object key (by its path), and reports syntax
// errors with line and column: JSON.parse gives neither reliably on Node 20.

import { inputRecord } from "../../core/null-proto.js";

export type JsonResult =
  | { ok: true; value: unknown; keyLines: Map<string, number> }
  | { ok: false; line: number; column: number; message: string; /** true when the text ends before the value does */ truncated: boolean };

/** Key paths are joined with NUL, which cannot appear unescaped in a JSON key we care about. */
const SEP = "\u0000";
/** Only shallow keys are worth a position (block type, labels); deeper ones would just cost memory. */
const MAX_KEY_DEPTH = 4;

class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseJsonWithPositions(text: string): JsonResult {
  const p = new JsonReader(text);
  try {
    p.ws();
    const value = p.value([]);
    p.ws();
    if (p.pos < text.length) throw new JsonSyntaxError(p.pos, `unexpected ${JSON.stringify(text[p.pos])} after the JSON value`);
    return { ok: true, value, keyLines: p.keyLines };
  } catch (e) {
    if (e instanceof RangeError) e = new JsonSyntaxError(text.slice(0, p.pos).search(/[[{\s]*$/), "nesting too deep to read (the recursion limit was reached)");
    if (!(e instanceof JsonSyntaxError)) throw e;
    const { line, column } = p.position(e.offset);
    return { ok: false, line, column, message: e.message, truncated: e.offset >= text.trimEnd().length };
  }
}

class JsonReader {
  pos = 0;
  line = 1;
  readonly keyLines = new Map<string, number>();
  constructor(private readonly text: string) {}

  ws(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 13) this.pos++;
      else if (c === 10) {
        this.pos++;
        this.line++;
      } else if (c === 0xfeff && this.pos === 0) this.pos++;
      else return;
    }
  }

  value(path: string[]): unknown {
    const c = this.text[this.pos];
    if (c === "{") return this.object(path);
    if (c === "[") return this.array(path);
    if (c === '"') return this.string();
    if (c === "t") return this.literal("true", true);
    if (c === "f") return this.literal("false", false);
    if (c === "n") return this.literal("null", null);
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    throw new JsonSyntaxError(this.pos, c === undefined ? "unexpected end of JSON input" : `unexpected ${JSON.stringify(c)}`);
  }

  private object(path: string[]): Record<string, unknown> {
    this.pos++;
    // No prototype: a member named `__proto__` or `toString` is data like any other.
    const out: Record<string, unknown> = inputRecord();
    this.ws();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') throw new JsonSyntaxError(this.pos, "expected a property name in double quotes");
      const keyLine = this.line;
      const key = this.string();
      if (path.length < MAX_KEY_DEPTH) {
        const k = [...path, key].join(SEP);
        if (!this.keyLines.has(k)) this.keyLines.set(k, keyLine);
      }
      this.ws();
      if (this.text[this.pos] !== ":") throw new JsonSyntaxError(this.pos, "expected ':' after a property name");
      this.pos++;
      this.ws();
      out[key] = this.value(path.length < MAX_KEY_DEPTH ? [...path, key] : path);
      this.ws();
      const c = this.text[this.pos];
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === "}") {
        this.pos++;
        return out;
      }
      throw new JsonSyntaxError(this.pos, "expected ',' or '}' in an object");
    }
  }

  private array(path: string[]): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    this.ws();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value(path));
      this.ws();
      const c = this.text[this.pos];
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === "]") {
        this.pos++;
        return out;
      }
      throw new JsonSyntaxError(this.pos, "expected ',' or ']' in an array");
    }
  }

  private string(): string {
    const start = this.pos;
    let end = this.pos + 1;
    let simple = true;
    for (;;) {
      const c = this.text.charCodeAt(end);
      if (Number.isNaN(c)) throw new JsonSyntaxError(start, "unterminated string");
      if (c === 34) break;
      if (c === 92) {
        simple = false;
        end += 2;
        continue;
      }
      if (c < 0x20) throw new JsonSyntaxError(end, "control character in a string");
      end++;
    }
    this.pos = end + 1;
    const raw = this.text.slice(start, end + 1);
    if (simple) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new JsonSyntaxError(start, "invalid escape in a string");
    }
  }

  private number(): number {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!m) throw new JsonSyntaxError(this.pos, "invalid number");
    this.pos += m[0].length;
    return Number(m[0]);
  }

  private literal<T>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    throw new JsonSyntaxError(this.pos, `unexpected ${JSON.stringify(this.text[this.pos])}`);
  }

  position(offset: number): { line: number; column: number } {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: offset - lineStart + 1 };
  }
}
