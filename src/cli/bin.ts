#!/usr/bin/env node
// What the `cf-waf-migrate` binary runs (bundled by scripts/bundle-cli.mjs into dist/cli/main.js): V8's flags
// for a short run, then the command line itself (./main.ts): bundled into dist/cli/cli.cjs and run through
// V8's code cache when this V8 takes it (./cli-script.ts says why), else its ES module build,
// dist/cli/program.mjs.
//
// `--version` alone is answered here, as the command line answers it (the version and a newline, exit 0):
// loading the command line, even from its cache, cost more than the answer.
import "./v8-tuning.js"; // first: the cached code was made under these flags, and is rejected under others
import { fileURLToPath } from "node:url";
import { startCachedCli } from "./cli-script.js";
import { toolVersion } from "./version.js";

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === "--version") process.stdout.write(`${toolVersion()}\n`);
// Bundled as CommonJS (no top-level await); the ES module build reports its own failures, as cli.cjs does.
else if (!startCachedCli(fileURLToPath(new URL("./cli.cjs", import.meta.url)))) void import(new URL("./program.mjs", import.meta.url).href);
