// The cheap test that lets a big tree skip most of its files: can this file hold a resource the tool reads?
// Every type the tool reads starts with `cloudflare_`, in native syntax (`resource "cloudflare_…"`) and in
// JSON syntax (`"cloudflare_…": {`) alike. A label or key can also be written with escapes
// (`"cloudflare\u005fwaf_rule"`), so a file with any `\u`/`\U` escape counts as well: the test may say yes
// for a file that holds nothing (a comment, a heredoc, an escape in an AWS policy), never no for one that does.

export function mayHoldCloudflare(text: string): boolean {
  return text.includes("cloudflare_") || text.includes("\\u") || text.includes("\\U");
}

/**
 * The cheap test that lets a directory read only for its module calls skip a file: can this native-syntax
 * text hold a block that such a reading keeps (`module`, `terraform`, `removed`: config/load.ts
 * `selectModules`)? A block starts a line (after blanks, or after a `/* … *\/` comment that ends on that
 * line), its keyword followed by neither a word character nor `.`. Says yes for anything that might be one (a
 * heredoc line, `module = …`), never no for one that is.
 */
export function mayDeclareTreeBlock(text: string): boolean {
  return startsABlock(text, "module") || startsABlock(text, "terraform") || startsABlock(text, "removed");
}

function startsABlock(text: string, keyword: string): boolean {
  for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, at + keyword.length)) {
    const next = text.charCodeAt(at + keyword.length);
    // `module.vpc.id`, `terraform.workspace`, `modules`, `terraform_remote_state`: a reference or a longer word.
    if (isWordChar(next) || next === 46 /* . */) continue;
    if (onlyBlanksOrCommentBefore(text, at)) return true;
  }
  return false;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/** Whether what precedes `at` on its line is blanks only, or ends a block comment (then anything may be before). */
function onlyBlanksOrCommentBefore(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12 || c === 0xfeff) continue;
    return c === 47 /* / */ && text.charCodeAt(i - 1) === 42 /* * */;
  }
  return true;
}

/** A resource header as a file's text shows it, read without parsing. */
export interface ResourceHeader {
  type: string;
  name: string;
  /** 1-based line of the header (of the type key in JSON syntax). */
  line: number;
}

// `resource "type" "name" {` (labels quoted or not) at the start of a line, and JSON's `"type": { "name":`.
const NATIVE_HEADER = /^[ \t]*resource[ \t]+(?:"([^"\\\n]+)"|([A-Za-z_][\w-]*))[ \t]+(?:"([^"\\\n]+)"|([A-Za-z_][\w-]*))[ \t]*\{/gm;
const JSON_HEADER = /"([A-Za-z_][\w-]*)"\s*:\s*\{(?=\s*"([^"\\]+)"\s*:)/g;

/**
 * The resources a file's text appears to declare, for a file no parser could read (a syntax error the
 * structure pass stops at): what it shows cannot be known for sure, so this says yes for a header inside
 * a comment or a heredoc rather than miss one that is real.
 */
export function resourceHeadersOf(text: string, json: boolean): ResourceHeader[] {
  const out: ResourceHeader[] = [];
  const pattern = json ? JSON_HEADER : NATIVE_HEADER;
  for (const m of text.matchAll(pattern)) {
    const type = json ? m[1]! : (m[1] ?? m[2])!;
    const name = json ? m[2]! : (m[3] ?? m[4])!;
    out.push({ type, name, line: lineAt(text, m.index! + (json ? 0 : m[0].indexOf("resource"))) });
  }
  return out;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
