// Loads the command line's bundle (dist/cli/cli.cjs, built by scripts/bundle-cli.mjs) through V8's code
// cache. Compiling the bundle's code was a fifth of a short run's CPU (10-file scan: ~30 ms of ~140 ms above
// `node -e 0`), and Node 20 caches no compiled code for ES modules. A classic script can be given V8's
// cached data: the bytecode of the functions that a representative run (a scan, at build time) compiled.
//
// The cache is read, never written, at run time. V8 takes it only from the same V8 under the same flags
// that shape code (another Node, or a user's --interrupt-budget, differ). Whether it would is asked first of
// a one-line probe cached the same way: compiling the whole bundle from its text costs more than loading
// the ES module build beside it (dist/cli/program.mjs and its chunks), which the binary then runs instead.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** The probe's source: an expression no other script in the process has (V8 keeps compiled scripts by text). */
export const PROBE_SOURCE = '"cf-waf-migrate: V8 code cache probe"';

/** The cached data's file beside the bundle. */
export function codeCacheFile(bundle: string): string {
  return `${bundle}.v8cache`;
}

/** The probe's cached data, made with the bundle's. */
export function probeCacheFile(bundle: string): string {
  return `${bundle}.v8probe`;
}

/**
 * The bundle as a function of what a CommonJS module gets, plus its URL (the sources' `import.meta.url`).
 * The prefix shares the bundle's first line, so the source map's lines hold; strict, as the ES modules were.
 */
export function compileCliScript(bundle: string, cachedData?: Buffer): vm.Script {
  const text = readFileSync(bundle, "utf8");
  const source = `(function (exports, require, module, __filename, __dirname, __cli_url) {"use strict";${text}\n})`;
  return new vm.Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
}

/** Runs the compiled bundle: the command line starts. */
export function runCliScript(script: vm.Script, bundle: string): void {
  const module = { exports: {} };
  const start = script.runInThisContext() as (...args: unknown[]) => void;
  start(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle), pathToFileURL(bundle).href);
}

/**
 * Starts the command line from the bundle when this V8 takes its cached data, and says whether it did; false
 * (nothing run) when a cache file is missing or unreadable, or the probe's cache is rejected.
 */
export function startCachedCli(bundle: string): boolean {
  let cachedData: Buffer;
  try {
    const probe = readFileSync(probeCacheFile(bundle));
    if (new vm.Script(PROBE_SOURCE, { cachedData: probe }).cachedDataRejected !== false) return false;
    cachedData = readFileSync(codeCacheFile(bundle));
  } catch {
    return false;
  }
  runCliScript(compileCliScript(bundle, cachedData), bundle);
  return true;
}
