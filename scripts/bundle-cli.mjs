// After tsc: replaces the command line's ~150 compiled modules in dist/cli/ with its bundles and V8's cached
// code for one of them:
//   cli.cjs           the command line (src/cli/main.ts and everything it imports), one classic script;
//   cli.cjs.v8cache   V8's code cache for it, made here by a training run (a scan of testdata/multi-zone),
//   cli.cjs.v8probe   and a one-line probe's, cached with it, that tells the binary whether V8 takes it;
//   program.mjs       the same command line as ES modules (one chunk per command, shared chunks), which the
//                     binary runs when V8 would not take the cache (another Node, other V8 flags);
//   main.js           the binary (src/cli/bin.ts): V8's flags, then cli.cjs through the cache, or program.mjs;
//   worker.js         the parse pool's worker (run by worker_threads);
//   root-worker.js    a root worker of a big scan (src/estate/parallel/root-worker.ts);
//   probe-worker.js   the worker sharing a big tree's first read (src/terraform/config/probe-worker.ts);
//   merge-worker.js   the worker merging a big scan's findings for its JSON report (src/estate/spill/merge-worker.ts);
//   other-root-worker.js  a worker loading the roots around a plan (src/estate/other-root-worker.ts);
//   package.json      `"type": "commonjs"`: main.js and worker.js are CommonJS, so that Node starts the
//                     binary without its ES module loader.
//
// Why a bundle: a CLI run spent most of its start-up resolving, reading and compiling modules one by one
// (measured on `scan testdata/multi-zone`: 0.38 s CPU unbundled, 0.27 s bundled, `node -e 0` 0.10 s). Why a
// classic script: compiling the bundle's code was still ~30 ms of a 10-file scan's ~140 ms above `node -e 0`,
// and Node 20 keeps no compiled code for ES modules; a vm.Script takes V8's cached data
// (src/cli/cli-script.ts). Why the ES module build too: compiling all of cli.cjs from its text (the cache
// rejected) cost ~30 ms more than loading one command's chunks. CI runs the CLI per root and per shard, and
// the tests spawn it hundreds of times.
//
// The library (dist/index.js and everything below dist/ but cli/) stays tsc's output, module by module:
// it is what `import "cf-waf-migrate"` loads, and its declarations are tsc's. Packages with native or WASM
// parts, and optional heavy ones, stay external (resolved from node_modules at run time, as before).
// The bundles keep dist/cli/'s depth, so the `import.meta.url`-relative paths they contain still hold:
// `../../package.json` (the version) and `./worker.js` (the parse pool's worker) and the other workers (`./root-worker.js`, `./probe-worker.js`, `./merge-worker.js`, `./other-root-worker.js`). In cli.cjs
// `import.meta.url` is `__cli_url`, the bundle's own URL, which src/cli/cli-script.ts passes in; an
// `import()` there (a classic script has no module loader without an experimental flag) is a `require()`.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { NODE_BUNDLE_OPTIONS, slimSourceMap } from "./bundle-node.mjs";
import { assertNoEagerTextSetup, lazyStringWidth } from "./lazy-string-width.mjs";
import { yargsNoVersionGuess } from "./yargs-no-version-guess.mjs";
import { lazyYargsAssert } from "./lazy-yargs-assert.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DIST = path.join(ROOT, "dist");
const CLI = path.join(DIST, "cli");
const PROGRAM = path.join(CLI, "main.js"); // tsc's output of src/cli/main.ts
const BIN = path.join(CLI, "bin.js"); // tsc's output of src/cli/bin.ts
const WORKER = path.join(DIST, "terraform/parse-pool/worker.js");
const ROOT_WORKER = path.join(DIST, "estate/parallel/root-worker.js");
const PROBE_WORKER = path.join(DIST, "terraform/config/probe-worker.js");
const MERGE_WORKER = path.join(DIST, "estate/spill/merge-worker.js");
const OTHER_ROOT_WORKER = path.join(DIST, "estate/other-root-worker.js");

const EXTERNAL = ["@cdktn/*", "web-tree-sitter", "@tree-sitter-grammars/*", "@grpc/*", "playwright-core", "yaml"];

/** The training run whose compiled functions the code cache holds: what most runs do, a scan. */
const TRAINING_ARGS = ["scan", path.join(ROOT, "testdata/multi-zone"), "--state", path.join(ROOT, "testdata/multi-zone/terraform.tfstate"), "--format", "json", "--fail-on", "never", "--quiet"];

export async function bundleCli() {
  const out = mkdtempSync(path.join(DIST, ".cli-bundle-"));
  try {
    const { plugins, banner: _esmBanner, ...common } = NODE_BUNDLE_OPTIONS;
    const results = await Promise.all([
      build({
        ...common,
        entryPoints: { cli: PROGRAM },
        outdir: out,
        outExtension: { ".js": ".cjs" },
        format: "cjs",
        define: { "import.meta.url": "__cli_url" },
        supported: { "dynamic-import": false },
        external: EXTERNAL,
        plugins: [lazyStringWidth, yargsNoVersionGuess, lazyYargsAssert, ...plugins],
      }),
      // The ES modules keep `.mjs`: dist/cli/ is a CommonJS directory (its package.json, written below).
      build({ ...NODE_BUNDLE_OPTIONS, entryPoints: { program: PROGRAM }, outdir: out, outExtension: { ".js": ".mjs" }, splitting: true, external: EXTERNAL, plugins: [lazyStringWidth, yargsNoVersionGuess, lazyYargsAssert, ...plugins] }),
      // The binary and the parse pool's worker, each one CommonJS file: Node then starts the binary without its
      // ES module loader (~4 ms), and loads program.mjs only when the binary cannot use the cache.
      ...[
        [{ main: BIN }, "__bin_url"],
        [{ worker: WORKER }, "__worker_url"],
        [{ "root-worker": ROOT_WORKER }, "__root_worker_url"],
        [{ "probe-worker": PROBE_WORKER }, "__probe_worker_url"],
        [{ "merge-worker": MERGE_WORKER }, "__merge_worker_url"],
        [{ "other-root-worker": OTHER_ROOT_WORKER }, "__other_root_worker_url"],
      ].map(([entryPoints, url]) =>
        build({
          ...common,
          entryPoints,
          outdir: out,
          format: "cjs",
          define: { "import.meta.url": url },
          banner: { js: `"use strict";\nconst ${url} = require("node:url").pathToFileURL(__filename).href;` },
          external: EXTERNAL,
          plugins,
        }),
      ),
    ]);
    const errors = results.reduce((n, r) => n + r.errors.length, 0);
    if (errors) throw new Error(`bundling the CLI failed: ${errors} errors`);
    const outputs = readdirSync(out).filter((f) => /\.[cm]?js$/.test(f)).map((f) => [f, readFileSync(path.join(out, f), "utf8")]);
    assertNoEagerTextSetup(outputs);
    assertNoDynamicImport(results[0].metafile);
    for (const name of readdirSync(out).filter((f) => f.endsWith(".map"))) slimSourceMap(path.join(out, name));
    // The cache is made where the bundle will be: V8 keeps the script's name it was made under.
    for (const f of ["cli.cjs", "cli.cjs.map"]) renameSync(path.join(out, f), path.join(CLI, f));
    trainCodeCache(path.join(CLI, "cli.cjs"));
    removeCompiledJs(CLI);
    for (const f of readdirSync(out)) renameSync(path.join(out, f), path.join(CLI, f));
    // main.js and worker.js are CommonJS, in a package whose `.js` files are ES modules.
    writeFileSync(path.join(CLI, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
    chmodSync(path.join(CLI, "main.js"), 0o755);
    return results.reduce((n, r) => n + Object.keys(r.metafile.inputs).length, 0);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A classic script has no module loader: an `import()` left in it fails when it runs (Node 20 needs an
 * experimental flag for one). Module syntax (`import`, `export`, `import.meta`) fails its compilation, which
 * the training run does.
 */
function assertNoDynamicImport(metafile) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    const dynamic = output.imports.filter((i) => i.kind === "dynamic-import");
    if (dynamic.length) throw new Error(`${file}: import() of ${dynamic.map((i) => i.path).join(", ")} cannot run in a classic script (see scripts/bundle-cli.mjs)`);
  }
}

/**
 * Runs the bundle once as the binary would, under the same V8 flags (tsc's src/cli/v8-tuning.js, then
 * src/cli/cli-script.js, still in dist/cli/ here), and writes V8's cached data for it, and for the probe
 * (src/cli/cli-script.ts), after the run. The
 * user's NODE_OPTIONS are left out: flags there would make a cache other Node processes reject.
 */
function trainCodeCache(bundle) {
  const url = (f) => JSON.stringify(pathToFileURL(path.join(CLI, f)).href);
  const code = [
    `import ${url("v8-tuning.js")};`,
    `import { writeFileSync } from "node:fs";`,
    `import vm from "node:vm";`,
    `import { undoRunTimeFlags } from ${url("v8-heap.js")};`,
    `import { PROBE_SOURCE, codeCacheFile, compileCliScript, probeCacheFile, runCliScript } from ${url("cli-script.js")};`,
    `const bundle = ${JSON.stringify(bundle)};`,
    `process.argv = [process.argv[0], ${JSON.stringify(path.join(CLI, "main.js"))}, ...JSON.parse(process.env.CFWM_TRAINING_ARGS)];`,
    `const script = compileCliScript(bundle);`,
    `process.on("exit", () => {`,
    // The scan sets V8 flags at run time (src/cli/v8-heap.ts); the cache must carry the flags the binary starts with.
    `  undoRunTimeFlags();`,
    `  writeFileSync(codeCacheFile(bundle), script.createCachedData());`,
    `  writeFileSync(probeCacheFile(bundle), new vm.Script(PROBE_SOURCE).createCachedData());`,
    `});`,
    `runCliScript(script, bundle);`,
  ].join("\n");
  const { NODE_OPTIONS: _userFlags, ...env } = process.env;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    env: { ...env, NO_COLOR: "1", CFWM_TRAINING_ARGS: JSON.stringify(TRAINING_ARGS) },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (r.status !== 0 || !existsSync(`${bundle}.v8cache`) || !existsSync(`${bundle}.v8probe`)) {
    throw new Error(`the code cache's training run failed (exit ${r.status ?? r.signal}): ${r.stderr || r.error?.message || ""}`);
  }
}

/** tsc's .js and .js.map under dist/cli/ (the bundle replaces them); its .d.ts files stay. */
function removeCompiledJs(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      removeCompiledJs(p);
      if (readdirSync(p).length === 0) rmSync(p, { recursive: true });
    } else if (name.endsWith(".js") || name.endsWith(".js.map")) rmSync(p);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (!existsSync(PROGRAM) || !existsSync(BIN)) {
    console.error("dist/cli/main.js or dist/cli/bin.js is missing: run tsc first (npm run build does both).");
    process.exit(2);
  }
  const modules = await bundleCli();
  console.log(`bundled the CLI: ${modules} modules into dist/cli/`);
}
