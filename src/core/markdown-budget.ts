// A size budget for Markdown meant for a pull-request comment. GitHub refuses a comment over 65,536
// characters; an estate of a few hundred zones renders far more than that. Sections are filled in order of
// importance (what a reviewer must act on first, details last) and never split inside an item, so tables
// and code fences stay whole; what does not fit is cut with one line that says how much was left out and
// where to find it. Pure string arithmetic.

/** Below GitHub's 65,536-character limit, with room for a CI job's own preface around the comment. */
export const MARKDOWN_MAX_CHARS = 60_000;

export const SEE_FULL_REPORT = "see the JSON report (`--format json`)";

export interface BudgetSection {
  /** Lines before the items: a heading, a table header, a `<details><summary>` opening. */
  open: string[];
  /** The items, each one or more lines; an item is kept whole or left out. */
  items: string[][];
  /** Lines after the items (`</details>`). */
  close: string[];
  /** What an item is, plural, for the cut line ("zones", "findings"). */
  noun: string;
  /** Lower fills first. Sections of equal priority fill in their order. */
  priority: number;
  /**
   * At most this fraction of `limit` for the items, so a long list of high priority (thousands of zones that
   * need action) leaves room for the sections after it. Default: no cap beyond what is left.
   */
  maxShare?: number;
}

/** Text of the line that replaces what did not fit. */
export function cutLine(n: number, noun: string): string {
  return `… and ${n} more ${noun}, ${SEE_FULL_REPORT}.`;
}

// A cut line is preceded by a blank line (a table ends at a blank line; otherwise the cut line would read
// as one more row). Reserved for every section up front so a cut never pushes the total over the limit.
const CUT_RESERVE = 2 + cutLine(Number.MAX_SAFE_INTEGER, "x".repeat(40)).length + 1;

const size = (lines: readonly string[]): number => lines.reduce((n, l) => n + l.length + 1, 0);

/**
 * The sections' lines, in the order given, with as many items each as fit in `limit` characters once
 * `fixed` (lines the caller prints besides the sections) is counted. Every section keeps its `open` and
 * `close` lines; a section that lost items ends with a cut line.
 */
export function fitSections(sections: readonly BudgetSection[], limit: number, fixed: readonly string[] = []): string[][] {
  let left = limit - size(fixed) - sections.reduce((n, s) => n + size(s.open) + size(s.close) + CUT_RESERVE, 0);
  const kept = new Map<BudgetSection, number>();
  const order = sections.map((s, i) => [s, i] as const).sort(([a, i], [b, j]) => a.priority - b.priority || i - j);
  for (const [s] of order) {
    let n = 0;
    let own = s.maxShare === undefined ? Infinity : Math.floor(limit * s.maxShare);
    for (const item of s.items) {
      const cost = size(item);
      if (cost > left || cost > own) break;
      left -= cost;
      own -= cost;
      n++;
    }
    kept.set(s, n);
  }
  return sections.map((s) => {
    const n = kept.get(s)!;
    const cut = s.items.length - n;
    return [...s.open, ...s.items.slice(0, n).flat(), ...(cut > 0 ? ["", cutLine(cut, s.noun)] : []), ...s.close];
  });
}

/**
 * A collapsible block: GitHub renders Markdown inside `<details>` when blank lines surround it (items
 * start with a blank line; the close begins with one).
 */
export function details(summary: string, open = false): { open: string[]; close: string[] } {
  return { open: ["", `<details${open ? " open" : ""}><summary>${summary}</summary>`], close: ["", "</details>"] };
}
