// Loads the provider double's classic-script bundle (dist/sandbox/provider/double.cjs, built by
// scripts/bundle-double.mjs) through V8's code cache (src/launch/cached-script.ts), as the command line loads
// its own. Terraform starts the double once per command that needs
// the provider, and the tests run such commands hundreds of times (104 in test/double/kills-before.test.ts
// alone): compiling the 1 MB bundle's code as an ES module was ~16 ms of each start's ~110 ms, and Node 20
// keeps no compiled code for ES modules.
import type vm from "node:vm";
import { codeCacheFile, compileBundleScript, probeCacheFile, runBundleScript, startCachedBundle } from "../../launch/cached-script.js";

/** The probe's source: an expression no other script in the process has (V8 keeps compiled scripts by text). */
export const DOUBLE_PROBE_SOURCE = '"cf-waf-migrate: provider double V8 code cache probe"';

/** What double.cjs calls the sources' `import.meta.url` (scripts/bundle-double.mjs). */
const URL_NAME = "__double_url";

export const doubleCodeCacheFile = codeCacheFile;
export const doubleProbeCacheFile = probeCacheFile;

/** The bundle compiled as the launcher compiles it (the training run must compile the same source). */
export function compileDoubleScript(bundle: string, cachedData?: Buffer): vm.Script {
  return compileBundleScript(bundle, URL_NAME, cachedData);
}

/** Runs the compiled bundle: the double starts. */
export function runDoubleScript(script: vm.Script, bundle: string): void {
  runBundleScript(script, bundle);
}

/** Starts the double from the bundle when this V8 takes its cached data, and says whether it did. */
export function startCachedDouble(bundle: string): boolean {
  return startCachedBundle(bundle, URL_NAME, DOUBLE_PROBE_SOURCE);
}
