// Loads the command line's bundle (dist/cli/cli.cjs, built by scripts/bundle-cli.mjs) through V8's code
// cache. Compiling the bundle's code was a fifth of a short run's CPU (10-file scan: ~30 ms of ~140 ms above
// `node -e 0`), and Node 20 caches no compiled code for ES modules. A classic script can be given V8's
// cached data: the bytecode of the functions that a representative run (a scan, at build time) compiled.
//
// The mechanism is src/launch/cached-script.ts. V8 takes the cache only from the same V8 under the same
// flags that shape code (another Node, or a user's --interrupt-budget, differ); when it would not, compiling
// the whole bundle from its text costs more than loading the ES module build beside it (dist/cli/program.mjs
// and its chunks), which the binary then runs instead.
import type vm from "node:vm";
import { compileBundleScript, runBundleScript, startCachedBundle } from "../launch/cached-script.js";

export { codeCacheFile, probeCacheFile } from "../launch/cached-script.js";

/** The probe's source: an expression no other script in the process has (V8 keeps compiled scripts by text). */
export const PROBE_SOURCE = '"cf-waf-migrate: V8 code cache probe"';

/** What cli.cjs calls the sources' `import.meta.url` (scripts/bundle-cli.mjs). */
const URL_NAME = "__cli_url";

/** The bundle compiled as the binary compiles it (the training run must compile the same source). */
export function compileCliScript(bundle: string, cachedData?: Buffer): vm.Script {
  return compileBundleScript(bundle, URL_NAME, cachedData);
}

/** Runs the compiled bundle: the command line starts. */
export function runCliScript(script: vm.Script, bundle: string): void {
  runBundleScript(script, bundle);
}

/** Starts the command line from the bundle when this V8 takes its cached data, and says whether it did. */
export function startCachedCli(bundle: string): boolean {
  return startCachedBundle(bundle, URL_NAME, PROBE_SOURCE);
}
