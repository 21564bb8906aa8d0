// HTML templating with escaping by construction: `html\`…\`` escapes every interpolated value unless it is
// itself the result of `html` (a `SafeHtml`). Strings from the user's files (names, descriptions,
// expressions, URLs) can therefore only ever reach the page as text.
//
// Why our own ~40 lines instead of a library: the page is rendered once on the server side of a CLI and
// never re-rendered, so a DOM or virtual-DOM layer (lit-html's SSR needs a DOM shim; htm + vhtml is
// unmaintained since 2019) buys nothing; string-template engines (nunjucks, eta) keep templates in separate
// files the package must ship and locate at run time, and make escaping a setting that one `| safe` or
// `<%~` undoes. A tagged template makes the unescaped path a type (`SafeHtml`) that only this module
// creates from constants, which the type checker enforces at every call site.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text or an attribute value made inert: the five characters that can end a text run or an attribute are replaced. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A fragment of markup that is already safe: built by `html` (its values escaped) or from a constant. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What may be interpolated: text (escaped), fragments (kept), numbers, lists of either, and nothing. */
export type HtmlValue = string | number | boolean | SafeHtml | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** The tagged template: `html\`<td>${name}</td>\`` gives `<td>&lt;img…&gt;</td>` for a hostile name. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/**
 * Markup from this program's own constants (the page's CSS and script): never pass text from a report.
 * The name says what the caller vouches for.
 */
export function trustedConstant(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
