// The layout `terraform fmt` gives the emitter's own lines (hcl-emit.ts), computed here instead of in
// @cdktn/hcl-tools `format()`: that formatter is Go compiled to WASM with a cost of about a millisecond per
// call, which a plan over thousands of zones paid once per zone, and on a zone with 20,000 unmapped
// overrides it formatted megabytes of TODO comments it leaves as they are.
//
// The rules are hclwrite.Format's, for the few line shapes the emitter writes: two spaces of indentation
// per open bracket, the `=` of consecutive single-line attributes aligned one space after the longest name
// (a blank line or a line that is not such an attribute ends the run), single spaces elsewhere, blank lines
// kept empty, top-level comments as they are. Anything outside those shapes gives null and the caller uses
// `format()`: a line it does not recognise costs speed, never a different output. The equivalence is a test
// (test/terraform/hcl-layout.test.ts) against `format()` itself.

const NAME = "[A-Za-z_][A-Za-z0-9_-]*";
const ATTRIBUTE = new RegExp(`^(${NAME}) = (.+)$`);
const BLOCK_OPEN = new RegExp(`^${NAME}(?: "${NAME}")* \\{$`);
const ATTRIBUTE_OPEN = new RegExp(`^${NAME} = [[{]$`);
/** One quoted string without template sequences (the emitter escapes `${` and `%{`), no raw control character. */
const QUOTED = /^"(?:[^"\\\x00-\x1f\x7f]|\\[^\x00-\x1f\x7f])*"$/;
const TEMPLATE = /[$%]\{/;
const NUMBER = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** `cloudflare_zone.shop.id`: a plain traversal. */
const TRAVERSAL = new RegExp(`^${NAME}(?:\\.${NAME})+$`);
/** A top-level comment format() keeps as it is: no control character but tab, no trailing white space. */
const COMMENT = /^#[^\x00-\x08\x0a-\x1f\x7f]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isSimpleValue(v: string): boolean {
  if (v === "true" || v === "false") return true;
  if (NUMBER.test(v) || TRAVERSAL.test(v)) return true;
  return QUOTED.test(v) && !TEMPLATE.test(v);
}

/**
 * `lines` (one item each, no indentation) laid out as `format(lines.join("\n") + "\n")` returns them, or
 * null when a line is outside the shapes this knows.
 */
export function layoutHclLines(lines: string[]): string | null {
  const out: string[] = new Array(lines.length);
  let depth = 0;
  // The current run of aligned attributes: indexes into `out`, their names and values.
  let run: { index: number; name: string; value: string }[] = [];
  let indent = "";
  const closeRun = () => {
    if (run.length === 0) return;
    let width = 0;
    for (const a of run) if (a.name.length > width) width = a.name.length;
    for (const a of run) out[a.index] = `${indent}${a.name}${" ".repeat(width - a.name.length)} = ${a.value}`;
    run = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (LONE_SURROGATE.test(line)) return null;
    if (line === "") {
      closeRun();
      out[i] = "";
      continue;
    }
    if (line === "}" || line === "}," || line === "]") {
      closeRun();
      if (depth === 0) return null;
      depth--;
      indent = "  ".repeat(depth);
      out[i] = indent + line;
      continue;
    }
    const attr = ATTRIBUTE.exec(line);
    if (attr && isSimpleValue(attr[2]!)) {
      run.push({ index: i, name: attr[1]!, value: attr[2]! });
      continue;
    }
    closeRun();
    if (line === "{" || BLOCK_OPEN.test(line) || ATTRIBUTE_OPEN.test(line)) {
      out[i] = indent + line;
      depth++;
      indent = "  ".repeat(depth);
      continue;
    }
    if (depth === 0 && COMMENT.test(line) && line === line.trimEnd()) {
      out[i] = line;
      continue;
    }
    return null;
  }
  closeRun();
  if (depth !== 0) return null;
  return out.join("\n") + "\n";
}
