// The page shell: one self-contained document. The stylesheet and the script are inline and allowed by
// their sha256 hashes in a Content-Security-Policy meta tag that forbids everything else (no network, no
// inline event handlers, no other script or style), so markup that slipped into a report could not run
// or load anything even if escaping failed.
import { createHash } from "node:crypto";
import { html, trustedConstant, type SafeHtml } from "./template.js";
import { PAGE_CSS } from "./styles.js";
import { PAGE_SCRIPT } from "./script.js";

/** `'sha256-…'`: the CSP source expression that allows exactly this inline text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

export function contentSecurityPolicy(css: string, script: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspHash(css)}`,
    `script-src ${cspHash(script)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export function renderPage(opts: { title: string; header: SafeHtml; body: SafeHtml }): string {
  const csp = contentSecurityPolicy(PAGE_CSS, PAGE_SCRIPT);
  return (
    "<!doctype html>\n" +
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${opts.title}</title>
<style>${trustedConstant(PAGE_CSS)}</style>
</head>
<body>
<header class="page">${opts.header}</header>
<main>
${opts.body}
</main>
<script>${trustedConstant(PAGE_SCRIPT)}</script>
</body>
</html>
`.value
  );
}
