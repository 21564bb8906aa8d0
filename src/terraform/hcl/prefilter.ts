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
 * text hold a `module` or `terraform` block? A block starts a line (after blanks, or after a `/* … *\/`
 * comment that ends on that line), its keyword followed by a label or `{`. Says yes for anything that
 * might be one (a heredoc line, `module = …`), never no for one that is.
 */
export function mayDeclareModuleOrTerraform(text: string): boolean {
  return startsABlock(text, "module") || startsABlock(text, "terraform");
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
