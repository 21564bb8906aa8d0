// HCL quoted strings: the one place that knows how to write a value as an HCL string literal and how to
// read one back. Terraform prints instance keys this way (addrs.StringKey), hclwrite writes literals this
// way, and labels in the files we read are decoded this way.

/** HCL quoted-string escaping as Terraform uses for instance keys. */
export function quoteHclString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.codePointAt(i)!;
    if (code > 0xffff) {
      // A surrogate pair: printable astral characters are kept as they are.
      const pair = String.fromCodePoint(code);
      out += isPrintable(code) ? pair : `\\U${code.toString(16).padStart(8, "0")}`;
      i++;
      continue;
    }
    switch (ch) {
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      case '"':
        out += '\\"';
        break;
      case "\\":
        out += "\\\\";
        break;
      case "$":
      case "%":
        // A template introducer (`${`, `%{`) is escaped by doubling its first character.
        out += s[i + 1] === "{" ? ch + ch : ch;
        break;
      default:
        // Printable ASCII needs no Unicode lookup (which allocated and ran two regular expressions per character).
        out += (code >= 0x20 && code < 0x7f) || isPrintable(code) ? ch : `\\u${code.toString(16).padStart(4, "0")}`;
    }
  }
  return out + '"';
}

/** Go's unicode.IsPrint approximated: control characters and unassigned/format characters are not printable. */
function isPrintable(code: number): boolean {
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return false;
  if (code === 0xad) return false;
  // Unicode categories Cc, Cf, Cs, Co, Cn, Zl, Zp and space separators other than U+0020 are not printable in Go.
  const ch = String.fromCodePoint(code);
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(ch)) return false;
  if (/\p{Zs}/u.test(ch) && code !== 0x20) return false;
  return true;
}

/** Index of the closing quote of the string literal whose opening quote is at `start`; -1 if unterminated. */
export function quotedStringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i;
    else if (c === "\n") return -1;
  }
  return -1;
}

/**
 * The value of a quoted string's body (without the quotes): HCL's escapes (`\\n \\r \\t \\" \\\\ \\uXXXX
 * \\UXXXXXXXX`) and the template escapes `$${` / `%%{`. With `strict`, an unknown or short escape throws;
 * otherwise it is kept as written.
 */
export function unquoteHclString(body: string, opts: { strict?: boolean } = {}): string {
  // No escape and no doubled template introducer: the body is the value (most keys and labels).
  if (body.indexOf("\\") === -1 && body.indexOf("{") === -1) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\") {
      const e = body[i + 1] ?? "";
      const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
      if (e in simple) {
        out += simple[e];
        i++;
        continue;
      }
      if (e === "u" || e === "U") {
        const len = e === "u" ? 4 : 8;
        const hex = body.slice(i + 2, i + 2 + len);
        if (hex.length === len && /^[0-9a-fA-F]+$/.test(hex)) {
          out += String.fromCodePoint(parseInt(hex, 16));
          i += 1 + len;
          continue;
        }
      }
      if (opts.strict) throw new Error(`bad escape \\${e}`);
      out += c;
      continue;
    }
    if ((c === "$" || c === "%") && body[i + 1] === c && body[i + 2] === "{") {
      out += c + "{"; // `$${` is the escaped form of `${`
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}
