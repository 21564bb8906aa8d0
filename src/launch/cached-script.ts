// A bundle run as a classic script through V8's code cache: what the command line (src/cli/cli-script.ts)
// and the provider double (src/sandbox/provider/double-script.ts) each start from, since Node 20 keeps no
// compiled code for ES modules. Each says why its start-up needs it; the mechanism is this one.
//
// The cache is read, never written, at run time (the build's training run writes it, compiling the bundle
// with the same function as here: V8 takes cached data only for the same source). V8 takes it only from the
// same V8 under the same flags that shape code; whether it would is asked first of a one-line probe cached
// the same way, before the whole bundle is compiled with it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** The cached data's file beside the bundle. */
export function codeCacheFile(bundle: string): string {
  return `${bundle}.v8cache`;
}

/** The probe's cached data, made with the bundle's. */
export function probeCacheFile(bundle: string): string {
  return `${bundle}.v8probe`;
}

/**
 * The bundle as a function of what a CommonJS module gets, plus its URL under `urlName` (what the bundler
 * defined the sources' `import.meta.url` as). The prefix shares the bundle's first line, so the source map's
 * lines hold; strict, as the ES modules were.
 */
export function compileBundleScript(bundle: string, urlName: string, cachedData?: Buffer): vm.Script {
  const text = readFileSync(bundle, "utf8");
  const source = `(function (exports, require, module, __filename, __dirname, ${urlName}) {"use strict";${text}\n})`;
  return new vm.Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
}

/** Runs the compiled bundle. */
export function runBundleScript(script: vm.Script, bundle: string): void {
  const module = { exports: {} };
  const start = script.runInThisContext() as (...args: unknown[]) => void;
  start(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle), pathToFileURL(bundle).href);
}

/**
 * Runs the bundle when this V8 takes its cached data, and says whether it did; false (nothing run) when a
 * cache file is missing or unreadable, or the probe's cache (`probeSource`, an expression no other script in
 * the process has: V8 keeps compiled scripts by text) is rejected.
 */
export function startCachedBundle(bundle: string, urlName: string, probeSource: string): boolean {
  let cachedData: Buffer;
  try {
    const probe = readFileSync(probeCacheFile(bundle));
    if (new vm.Script(probeSource, { cachedData: probe }).cachedDataRejected !== false) return false;
    cachedData = readFileSync(codeCacheFile(bundle));
  } catch {
    return false;
  }
  runBundleScript(compileBundleScript(bundle, urlName, cachedData), bundle);
  return true;
}
