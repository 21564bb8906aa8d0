// After tsc: replaces the provider double's entry points (dist/sandbox/provider/main.js, and host.js, the
// long-lived double terraform reattaches to) with one bundle each of it, its modules and its gRPC
// dependencies (@grpc/grpc-js, @grpc/proto-loader, protobufjs).
//
// Why: Terraform starts the double once per plan, apply, import or refresh, and the tests run such commands
// hundreds of times; start-up was mostly resolving and compiling the modules one by one (measured: loading
// main.js 0.40 s CPU unbundled, 0.27 s bundled; `terraform validate` on the double 1.0 s → 0.8 s CPU).
// The bundle sits where main.js was, so its `import.meta.url`-relative paths (./proto/, ../schemas/) still
// hold and the mirror's double.env (CF_DOUBLE_MAIN) needs no change. The other modules stay tsc's output:
// the library and the tests import them.
import { build } from "esbuild";
import { NODE_BUNDLE_OPTIONS, slimSourceMap } from "./bundle-node.mjs";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("../dist/sandbox/provider/main.js", import.meta.url));
const HOST = fileURLToPath(new URL("../dist/sandbox/provider/host.js", import.meta.url));

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
  const modules = await bundle(ENTRY);
  await bundle(HOST);
  return modules;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const modules = await bundleProviderDouble();
  console.log(modules ? `bundled the provider double: ${modules} modules into dist/sandbox/provider/main.js` : "dist/sandbox/provider/main.js is missing: run tsc first");
}
