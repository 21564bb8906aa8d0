// How far V8 lets the heap grow past what is live. V8 grows the heap up to 4x the live size between full
// collections. An offline scan's live heap stays small (estate/spill keeps the report on disk, each root's
// configuration is read at its turn): with ~30-55 MB live on the 100 MB tree that let the heap reach 240 MB
// (peak RSS 337 MB); 1.5x keeps it near 110 MB (peak RSS ~210 MB) for little CPU, a full collection of a
// small heap being cheap. A plan holds the whole estate, but far less of it is live than V8 lets the heap
// grow to: on the 100 MB tree's 200 roots, peak RSS 2.0-2.6 GB by default, 1.37 GB with 1.5x, in about the
// same time (78-92 s against 82 s, single runs). Set at run time (V8 reads it at each collection); a growth
// the user chose (node --heap-growing-percent=…, or NODE_OPTIONS) wins.
// Also, for the same runs, how V8 collects young objects once root workers take every core (scavengeAlone).
import { availableParallelism } from "node:os";
import { setFlagsFromString } from "node:v8";
import { userChoseFlag } from "./v8-budget.js";

export const HEAP_GROWING_PERCENT = 50;

/** Whether the user already chose the heap's growth. */
export function userChoseHeapGrowth(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return userChoseFlag("heap-growing-percent", execArgv, nodeOptions);
}

/** Keeps the heap near its live size for the rest of the run. */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS): void {
  if (!userChoseHeapGrowth(execArgv, nodeOptions)) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * Whether young-generation collections should run on the collecting thread alone: when the run's builder
 * threads (this one and its root workers, estate/parallel/) are at least as many as the cores. V8 splits a
 * scavenge into about one task per core; with every core running a builder, the helper tasks wait for a
 * core and add their hand-offs to each pause. A choice the user made (--parallel-scavenge or
 * --no-parallel-scavenge on node's command line) wins.
 */
export function scavengeAlone(builders: number, cores: number, execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const chosen = userChoseFlag("parallel-scavenge", execArgv, nodeOptions) || userChoseFlag("no-parallel-scavenge", execArgv, nodeOptions);
  return !chosen && builders >= cores;
}

/**
 * Sets what scavengeAlone decides for `builders` threads, for the rest of the run (V8 reads the flag at
 * each scavenge, in every thread of the process). Measured on the 100 MB bench tree on 2 cores (this thread
 * and one root worker), six paired runs with the flag on node's command line: 12.22 → 11.43 s wall,
 * 22.4 → 21.5 s CPU on average, the same peak RSS.
 */
export function scavengeAloneWhenCoresBusy(builders: number): void {
  if (scavengeAlone(builders, availableParallelism(), process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString("--no-parallel-scavenge");
}

/**
 * V8's defaults again for the flags a scan sets as it runs (heap growth 0: let V8 decide; parallel
 * scavenges). For the build's code-cache training run (scripts/bundle-cli.mjs): V8 stamps cached code with a
 * hash of the flags set when it is made, and the binary starts without them.
 */
export function undoRunTimeFlags(): void {
  setFlagsFromString("--heap-growing-percent=0");
  setFlagsFromString("--parallel-scavenge");
}
