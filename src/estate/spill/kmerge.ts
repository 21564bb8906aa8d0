// Merges runs that are each sorted into one sorted sequence, holding one item per run (a binary heap of the
// runs' heads). Ties go to the earlier run, so merging a stable sort's runs gives the stable sort of their
// concatenation. Pure.

export function* mergeSorted<T>(runs: Iterable<T>[], compare: (a: T, b: T) => number): Generator<T> {
  const heads: { item: T; run: number; rest: Iterator<T> }[] = [];
  runs.forEach((run, index) => {
    const rest = run[Symbol.iterator]();
    const first = rest.next();
    if (!first.done) heads.push({ item: first.value, run: index, rest });
  });
  const before = (i: number, j: number) => {
    const c = compare(heads[i]!.item, heads[j]!.item);
    return c < 0 || (c === 0 && heads[i]!.run < heads[j]!.run);
  };
  const swap = (i: number, j: number) => {
    const t = heads[i]!;
    heads[i] = heads[j]!;
    heads[j] = t;
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heads.length && before(l, m)) m = l;
      if (r < heads.length && before(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let i = (heads.length >> 1) - 1; i >= 0; i--) down(i);
  while (heads.length > 0) {
    const top = heads[0]!;
    yield top.item;
    const next = top.rest.next();
    if (next.done) {
      const last = heads.pop()!;
      if (heads.length === 0) return;
      heads[0] = last;
    } else top.item = next.value;
    down(0);
  }
}
