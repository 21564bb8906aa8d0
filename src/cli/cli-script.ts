// Loads the command line's bundle (dist/cli/cli.cjs, built by scripts/bundle-cli.mjs) through V8's code
// cache. Compiling the bundle's code was a fifth of a short run's CPU (10-file scan: ~30 ms of ~140 ms above
// `node -e 0`), and Node 20 caches no compiled code for ES modules. A classic script can be given V8's
// cached data: the bytecode of the functions that a representative run (a scan, at build time) compiled.
//
// The cache is read, never written, at run time. V8 rejects it when its version, the bundle or the flags
// that shape code differ (another Node, a user's --interrupt-budget): the script is then compiled from its
// text, as before, silently.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** The cached data's file beside the bundle. */
export function codeCacheFile(bundle: string): string {
  return `${bundle}.v8cache`;
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

/** Compiles the bundle with its cached data when there is any (a missing or unreadable file: none), and runs it. */
export function startCli(bundle: string): vm.Script {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCacheFile(bundle));
  } catch {
    cachedData = undefined;
  }
  const script = compileCliScript(bundle, cachedData);
  runCliScript(script, bundle);
  return script;
}
