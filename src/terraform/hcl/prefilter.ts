// The cheap test that lets a big tree skip most of its files: can this file hold a resource the tool reads?
// Every type the tool reads starts with `cloudflare_`, in native syntax (`resource "cloudflare_…"`) and in
// JSON syntax (`"cloudflare_…": {`) alike. A label or key can also be written with escapes
// (`"cloudflare\u005fwaf_rule"`), so a file with any `\u`/`\U` escape counts as well: the test may say yes
// for a file that holds nothing (a comment, a heredoc, an escape in an AWS policy), never no for one that does.

export function mayHoldCloudflare(text: string): boolean {
  return text.includes("cloudflare_") || text.includes("\\u") || text.includes("\\U");
}
