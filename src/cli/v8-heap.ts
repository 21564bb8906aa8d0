// How far V8 lets the heap grow past what is live, for a run whose live heap stays small (an offline scan:
// estate/spill keeps the report on disk, each root's configuration is read at its turn). V8 grows the heap
// up to 4x the live size between full collections; with ~30-55 MB live on the 100 MB tree that let the heap
// reach 240 MB (peak RSS 337 MB). 1.5x keeps it near 110 MB (peak RSS ~210 MB) for little CPU: a full
// collection of a small heap is cheap. Set at run time (V8 reads it at each collection); a growth the user
// chose (node --heap-growing-percent=…, or NODE_OPTIONS) wins. Not for plan or gate: their live heap is the
// whole estate, where more frequent full collections cost more.
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
 * V8's own growth again (its default, 0: let V8 decide). For the build's code-cache training run
 * (scripts/bundle-cli.mjs): V8 stamps cached code with a hash of the flags set when it is made, and the
 * binary starts without the flag boundHeapGrowth sets during a scan.
 */
export function unboundHeapGrowth(): void {
  setFlagsFromString("--heap-growing-percent=0");
}
