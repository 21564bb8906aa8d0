// Lazy walks over iterables: the spilled report's lists are read item by item from disk, and a copy of one
// in an array is exactly what they exist to avoid.

/** `f` of each item, as it is reached. */
export function* mapItems<A, B>(items: Iterable<A>, f: (a: A) => B): Generator<B> {
  for (const a of items) yield f(a);
}

/** The items after the first `count`. */
export function* dropItems<T>(items: Iterable<T>, count: number): Generator<T> {
  let i = 0;
  for (const item of items) if (i++ >= count) yield item;
}
