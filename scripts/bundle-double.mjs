// After tsc: replaces the provider double's entry points (dist/sandbox/provider/main.js, and host.js, the
// long-lived double terraform reattaches to) with one bundle each of it, its modules and its gRPC
// dependencies (@grpc/grpc-js, @grpc/proto-loader, protobufjs).
//
// Why: Terraform starts the double once per plan, apply, import or refresh, and the tests run such commands
// hundreds of times; start-up was mostly resolving and compiling the modules one by one (measured: loading
// main.js 0.40 s CPU unbundled, 0.27 s bundled; `terraform validate` on the double 1.0 s → 0.8 s CPU).
// The bundle sits where main.js was, so its `import.meta.url`-relative paths (./proto/, ../schemas/) still
// hold. The other modules stay tsc's output: the library and the tests import them.
//
// What the mirror's wrapper starts (double.env's CF_DOUBLE_MAIN) is start.cjs (src/sandbox/provider/start.ts),
// which runs the same double from double.cjs, one classic script, through V8's code cache
// (double.cjs.v8cache, made at build time by trainDoubleCodeCache, with its probe double.cjs.v8probe), and
// falls back to main.js when V8 would not take the cache. Why: compiling the bundle as an ES module was
// ~16 ms of a start, and the tests start the double hundreds of times (src/sandbox/provider/double-script.ts).
// Measured on test/double/kills-before.test.ts (104 double processes): 0.159 s CPU each before, 0.136 s after.
import { build } from "esbuild";
import { NODE_BUNDLE_OPTIONS, slimSourceMap } from "./bundle-node.mjs";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const DIR = fileURLToPath(new URL("../dist/sandbox/provider/", import.meta.url));
const ENTRY = path.join(DIR, "main.js");
const HOST = path.join(DIR, "host.js");
const START = path.join(DIR, "start.js"); // tsc's output of src/sandbox/provider/start.ts
const SCRIPT = path.join(DIR, "double.cjs");

/** double.cjs (from tsc's main.js, before the ES bundle replaces it) and start.cjs, both CommonJS. */
async function bundleClassic() {
  const { plugins, banner: _esmBanner, ...common } = NODE_BUNDLE_OPTIONS;
  const results = await Promise.all([
    build({ ...common, entryPoints: [ENTRY], outfile: SCRIPT, format: "cjs", define: { "import.meta.url": "__double_url" }, supported: { "dynamic-import": false }, plugins }),
    build({
      ...common,
      entryPoints: [START],
      outfile: path.join(DIR, "start.cjs"),
      format: "cjs",
      define: { "import.meta.url": "__start_url" },
      banner: { js: `"use strict";\nconst __start_url = require("node:url").pathToFileURL(__filename).href;` },
      plugins,
    }),
  ]);
  if (results.some((r) => r.errors.length)) throw new Error("bundling the provider double's classic script failed");
  for (const [file, output] of Object.entries(results[0].metafile.outputs)) {
    const dynamic = output.imports.filter((i) => i.kind === "dynamic-import");
    if (dynamic.length) throw new Error(`${file}: import() of ${dynamic.map((i) => i.path).join(", ")} cannot run in a classic script`);
  }
  slimSourceMap(`${SCRIPT}.map`);
  slimSourceMap(path.join(DIR, "start.cjs.map"));
  for (const f of ["start.js", "start.js.map"]) rmSync(path.join(DIR, f), { force: true });
}

/**
 * Starts double.cjs once as start.cjs would (no V8 flags; the user's NODE_OPTIONS left out, flags there would
 * make a cache other processes reject) up to its handshake line, then writes V8's cached data for it and for
 * the probe. Run after the schemas and the protocol descriptors are in place (scripts/postbuild.mjs): the
 * start reads them.
 */
export function trainDoubleCodeCache() {
  if (!existsSync(SCRIPT)) return false;
  const url = (f) => JSON.stringify(pathToFileURL(path.join(DIR, f)).href);
  const code = [
    `import { writeFileSync } from "node:fs";`,
    `import vm from "node:vm";`,
    `import { DOUBLE_PROBE_SOURCE, compileDoubleScript, doubleCodeCacheFile, doubleProbeCacheFile, runDoubleScript } from ${url("double-script.js")};`,
    `const bundle = ${JSON.stringify(SCRIPT)};`,
    `process.argv = [process.argv[0], bundle];`,
    `const script = compileDoubleScript(bundle);`,
    `process.stdout.write = (line) => {`,
    `  if (!/^1\|[56]\|tcp\|/.test(String(line))) throw new Error("unexpected output: " + line);`,
    `  writeFileSync(doubleCodeCacheFile(bundle), script.createCachedData());`,
    `  writeFileSync(doubleProbeCacheFile(bundle), new vm.Script(DOUBLE_PROBE_SOURCE).createCachedData());`,
    `  process.exit(0);`,
    `};`,
    `runDoubleScript(script, bundle);`,
  ].join("\n");
  const { NODE_OPTIONS: _userFlags, PLUGIN_CLIENT_CERT: _cert, ...env } = process.env;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: DIR,
    env: { ...env, TF_PLUGIN_MAGIC_COOKIE: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2", CF_DOUBLE_VERSION: "3.35.0", PLUGIN_PROTOCOL_VERSIONS: "5" },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    timeout: 60_000,
  });
  if (r.status !== 0 || !existsSync(`${SCRIPT}.v8cache`) || !existsSync(`${SCRIPT}.v8probe`)) {
    throw new Error(`the provider double's code cache training run failed (exit ${r.status ?? r.signal}): ${r.stderr || r.error?.message || ""}`);
  }
  return true;
}

async function bundle(entry) {
  if (!existsSync(entry)) return 0;
  const result = await build({
    entryPoints: [entry],
    outfile: entry,
    allowOverwrite: true,
    ...NODE_BUNDLE_OPTIONS,
  });
  if (result.errors.length) throw new Error(`bundling the provider double failed: ${result.errors.length} errors`);
  slimSourceMap(`${entry}.map`);
  return Object.keys(result.metafile.inputs).length;
}

/** Bundles main.js and host.js; returns the number of modules in main.js's bundle (0: not built yet). */
export async function bundleProviderDouble() {
  if (!existsSync(ENTRY)) return 0;
  await bundleClassic();
  const modules = await bundle(ENTRY);
  await bundle(HOST);
  return modules;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const modules = await bundleProviderDouble();
  console.log(modules ? `bundled the provider double: ${modules} modules into dist/sandbox/provider/main.js` : "dist/sandbox/provider/main.js is missing: run tsc first");
}
