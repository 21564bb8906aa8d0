// The one order for names in every report: zone ids, addresses, files, finding codes. `a.localeCompare(b)`
// orders by the locale of whoever runs the tool (under sv_SE "ä" sorts after "z", under en_US before it), so
// two CI runners could print the same estate's report in different orders. Pinned to en-US: the order every
// report had on the machines this project is built and tested on (LANG=C.UTF-8 resolves to en-US).
//
// Creating the collator loads ICU's collation data (~6 ms of a short run's CPU), yet almost every name in a
// report is printable ASCII. For two such strings en-US's order (Unicode's root collation, not tailored) is
// simple: one primary weight per character (ASCII_SYMBOL_ORDER, then the letters; a letter's two cases share one), compared
// first along both strings, a shorter string first when one is the other's prefix; then, at the first
// place the cases differ, lower case first. Any other string goes to the collator, created then.
// test/core/text-order.test.ts holds this to the collator's answer.

/**
 * en-US's order of printable ASCII (U+0020–U+007E) other than letters, one weight each; letters follow, a to
 * z, each sharing one weight with its capital.
 */
export const ASCII_SYMBOL_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";

const PRIMARY = primaryWeights(ASCII_SYMBOL_ORDER);
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
let collator: Intl.Collator | undefined;

export function compareText(a: string, b: string): number {
  // Sorts compare equal names often (a zone's id, a file): a native check, before any loop over characters.
  if (a === b) return 0;
  if (PRINTABLE_ASCII.test(a) && PRINTABLE_ASCII.test(b)) return compareAscii(a, b);
  collator ??= new Intl.Collator("en-US");
  return collator.compare(a, b);
}

function compareAscii(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let byCase = 0;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const px = PRIMARY[x]!;
    const py = PRIMARY[y]!;
    if (px !== py) return px < py ? -1 : 1;
    // The same letter in two cases: lower case first, unless an earlier place already decided.
    if (byCase === 0) byCase = x > y ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return byCase;
}

/** Weight per char code (the index): symbols and digits in their order, then each letter with its capital. */
function primaryWeights(symbols: string): Uint8Array {
  const weights = new Uint8Array(0x7f);
  let weight = 0;
  for (const c of symbols) weights[c.charCodeAt(0)] = ++weight;
  for (let letter = 0; letter < 26; letter++) {
    weights[0x61 + letter] = weights[0x41 + letter] = ++weight;
  }
  return weights;
}
