// After tsc: replaces the command line's ~150 compiled modules in dist/cli/ with one bundle (entry, one
// chunk per command, shared chunks) and a bundled parse worker beside it.
//
// Why: a CLI run spends most of its start-up resolving, reading and compiling modules one by one (measured
// on `scan testdata/multi-zone`: 0.38 s CPU unbundled, 0.27 s bundled, `node -e 0` 0.10 s). CI runs the CLI per root
// and per shard, and the tests spawn it hundreds of times.
//
// The library (dist/index.js and everything below dist/ but cli/) stays tsc's output, module by module:
// it is what `import "cf-waf-migrate"` loads, and its declarations are tsc's. Packages with native or WASM
// parts, and optional heavy ones, stay external (resolved from node_modules at run time, as before).
// The bundle keeps dist/cli/'s depth, so the `import.meta.url`-relative paths it contains still hold:
// `../../package.json` (the version) and `./worker.js` (the parse pool's worker, bundled here too).
import { build } from "esbuild";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_BUNDLE_OPTIONS, slimSourceMap } from "./bundle-node.mjs";
import { assertNoEagerTextSetup, lazyStringWidth } from "./lazy-string-width.mjs";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const CLI = path.join(DIST, "cli");
const ENTRY = path.join(CLI, "main.js");
const WORKER = path.join(DIST, "terraform/parse-pool/worker.js");

const EXTERNAL = ["@cdktn/*", "web-tree-sitter", "@tree-sitter-grammars/*", "@grpc/*", "playwright-core", "yaml"];

export async function bundleCli() {
  const out = mkdtempSync(path.join(DIST, ".cli-bundle-"));
  try {
    const result = await build({
      entryPoints: { main: ENTRY, worker: WORKER },
      outdir: out,
      ...NODE_BUNDLE_OPTIONS,
      splitting: true,
      external: EXTERNAL,
      plugins: [lazyStringWidth, ...NODE_BUNDLE_OPTIONS.plugins],
    });
    if (result.errors.length) throw new Error(`bundling the CLI failed: ${result.errors.length} errors`);
    assertNoEagerTextSetup(readdirSync(out).filter((f) => f.endsWith(".js")).map((f) => [f, readFileSync(path.join(out, f), "utf8")]));
    for (const name of readdirSync(out).filter((f) => f.endsWith(".map"))) slimSourceMap(path.join(out, name));
    removeCompiledJs(CLI);
    for (const f of readdirSync(out)) renameSync(path.join(out, f), path.join(CLI, f));
    chmodSync(ENTRY, 0o755);
    return Object.keys(result.metafile.inputs).length;
  } finally {
    rmSync(out, { recursive: true, force: true });
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
  if (!existsSync(ENTRY)) {
    console.error("dist/cli/main.js is missing: run tsc first (npm run build does both).");
    process.exit(2);
  }
  const modules = await bundleCli();
  console.log(`bundled the CLI: ${modules} modules into dist/cli/`);
}
