// Runs an async function over a list with a bound on how many run at once: the bound keeps memory and open
// files in check, the concurrency hides each call's wait (a file system round trip, a child process).

/** Runs `fn` over `items`, at most `limit` at a time; results in the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * As `mapLimit`, in batches of `limit` (each batch waits for its slowest item), and nothing of a batch is
 * held once the next starts. Measured with test/estate/stream.test.ts: over a streamed estate's roots,
 * `mapLimit` left the first root reachable (and its configuration with it) until the run ended; this does not.
 */
export async function mapBatched<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += limit) {
    results.push(...(await Promise.all(items.slice(start, start + limit).map((item, k) => fn(item, start + k)))));
  }
  return results;
}
