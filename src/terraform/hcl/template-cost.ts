// A work budget for HashiCorp's parser. Its template scanner is quadratic in the `$` and `%` characters
// that do not start an interpolation (`${`) or a directive (`%{`) within one run of literal text: 16k of
// them in one string took ~15 s, 64k did not finish in a minute, 1 MB would take hours. The fast reader
// (./fast.ts) reads such strings itself; whatever still goes to hcl2json is measured here first, and a text
// over the budget is refused with a position instead of stalling the run. Pure: no I/O.
//
// The estimate over-approximates the scanner's work: for every line (a quoted string cannot span lines;
// a heredoc's literal text ends at each line too), between interpolation braces, the number of such
// characters times the length of the run of text they are in. Real configurations stay far below the
// budget: a 20 KB expression line with 200 `$` anchors costs 4 million, the budget is 64 million (a few
// seconds of the parser at most), for the whole text.

/** Estimated scanner steps above which a text is not handed to hcl2json. */
export const TEMPLATE_WORK_BUDGET = 64_000_000;

export interface TemplateCostOverrun {
  /** 1-based line and column (UTF-16) of the first such character in the costliest run. */
  line: number;
  column: number;
  /** `$` and `%` characters in that run that start neither `${` nor `%{`. */
  count: number;
  /** The estimate for the whole text. */
  work: number;
}

const NL = 10;
const DOLLAR = 36;
const PERCENT = 37;
const LBRACE = 123;
const RBRACE = 125;

/** Null when the text is within the budget; else where the costliest run starts. Linear in the text. */
export function templateCostOverrun(text: string, budget = TEMPLATE_WORK_BUDGET): TemplateCostOverrun | null {
  let work = 0;
  let worst = { cost: 0, at: -1, count: 0 };
  let runStart = 0;
  let bare = 0;
  let firstBare = -1;
  const endRun = (end: number): void => {
    if (bare > 0) {
      const cost = bare * (end - runStart);
      work += cost;
      if (cost > worst.cost) worst = { cost, at: firstBare, count: bare };
    }
    runStart = end + 1;
    bare = 0;
    firstBare = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NL || c === LBRACE || c === RBRACE) endRun(i);
    else if ((c === DOLLAR || c === PERCENT) && text.charCodeAt(i + 1) !== LBRACE) {
      if (firstBare === -1) firstBare = i;
      bare++;
    }
  }
  endRun(text.length);
  if (work <= budget) return null;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < worst.at; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: worst.at - lineStart + 1, count: worst.count, work };
}

/** The refusal in hcl2json's own diagnostic format (`parse config: [file:line,col-col: Summary; Detail.]`). */
export function templateCostError(file: string, o: TemplateCostOverrun): Error {
  return new Error(
    `parse config: [${file}:${o.line},${o.column}-${o.column + 1}: Template text too costly to read; ` +
      `this run of text holds ${o.count} "$" or "%" characters that start no interpolation, more than HashiCorp's parser reads in reasonable time (it is quadratic in them). Split it into shorter strings, for example joined with join().]`,
  );
}
