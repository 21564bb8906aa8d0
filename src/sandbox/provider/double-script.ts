// Loads the provider double's classic-script bundle (dist/sandbox/provider/double.cjs, built by
// scripts/bundle-double.mjs) through V8's code cache, as the command line loads its own (src/cli/cli-script.ts,
// which says why; this layer may not import the CLI's). Terraform starts the double once per command that needs
// the provider, and the tests run such commands hundreds of times (104 in test/double/kills-before.test.ts
// alone): compiling the 1 MB bundle's code as an ES module was ~16 ms of each start's ~110 ms, and Node 20
// keeps no compiled code for ES modules.
//
// The cache is read, never written, at run time. V8 takes it only from the same V8 under the same flags; a
// one-line probe cached with it says whether it would, before the bundle is compiled with it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** The probe's source: an expression no other script in the process has (V8 keeps compiled scripts by text). */
export const DOUBLE_PROBE_SOURCE = '"cf-waf-migrate: provider double V8 code cache probe"';

/** The cached data's file beside the bundle. */
export function doubleCodeCacheFile(bundle: string): string {
  return `${bundle}.v8cache`;
}

/** The probe's cached data, made with the bundle's. */
export function doubleProbeCacheFile(bundle: string): string {
  return `${bundle}.v8probe`;
}

/**
 * The bundle as a function of what a CommonJS module gets, plus its URL (the sources' `import.meta.url`).
 * The prefix shares the bundle's first line, so the source map's lines hold; strict, as the ES modules were.
 */
export function compileDoubleScript(bundle: string, cachedData?: Buffer): vm.Script {
  const text = readFileSync(bundle, "utf8");
  const source = `(function (exports, require, module, __filename, __dirname, __double_url) {"use strict";${text}\n})`;
  return new vm.Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
}

/** Runs the compiled bundle: the double starts. */
export function runDoubleScript(script: vm.Script, bundle: string): void {
  const module = { exports: {} };
  const start = script.runInThisContext() as (...args: unknown[]) => void;
  start(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle), pathToFileURL(bundle).href);
}

/**
 * Starts the double from the bundle when this V8 takes its cached data, and says whether it did; false
 * (nothing run) when a cache file is missing or unreadable, or the probe's cache is rejected.
 */
export function startCachedDouble(bundle: string): boolean {
  let cachedData: Buffer;
  try {
    const probe = readFileSync(doubleProbeCacheFile(bundle));
    if (new vm.Script(DOUBLE_PROBE_SOURCE, { cachedData: probe }).cachedDataRejected !== false) return false;
    cachedData = readFileSync(doubleCodeCacheFile(bundle));
  } catch {
    return false;
  }
  runDoubleScript(compileDoubleScript(bundle, cachedData), bundle);
  return true;
}
