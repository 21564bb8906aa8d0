// The one order for names in every report: zone ids, addresses, files, finding codes. `a.localeCompare(b)`
// orders by the locale of whoever runs the tool (under sv_SE "ä" sorts after "z", under en_US before it), so
// two CI runners could print the same estate's report in different orders. Pinned to en-US: the order every
// report had on the machines this project is built and tested on (LANG=C.UTF-8 resolves to en-US).
const COLLATOR = new Intl.Collator("en-US");

export function compareText(a: string, b: string): number {
  return COLLATOR.compare(a, b);
}
