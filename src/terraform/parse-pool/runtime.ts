// One hcl2json (Go compiled to WASM) runtime for this thread, replaced when it dies. Adversarial input can
// crash the Go runtime ("fatal error: …"); every later call then fails with "Go program has already
// exited" and its leftover timers throw from the event loop. A dead runtime is dropped from the module
// cache and a fresh one is loaded, and the leftover timers' errors are swallowed instead of ending the
// process.
import { createRequire } from "node:module";
import path from "node:path";
import { templateCostError, templateCostOverrun } from "../hcl/template-cost.js";

type Hcl2Json = typeof import("@cdktn/hcl2json");

const require = createRequire(import.meta.url);
const PACKAGE_DIR = path.dirname(require.resolve("@cdktn/hcl2json/package.json"));
const DEAD = /Go program has already exited|^fatal error:/m;

let current: Hcl2Json | null = null;
let guardInstalled = false;

/** The runtime's WASM instantiates when it is first required (~100 ms): only when a text needs it. */
export function hcl2jsonRuntime(): Hcl2Json {
  current ??= require("@cdktn/hcl2json") as Hcl2Json;
  return current;
}

export function isDeadRuntimeError(e: unknown): boolean {
  return DEAD.test(String((e as Error)?.message ?? e));
}

/** Parses with the current runtime; when it has died, once more with a fresh one. */
export async function parseWithRuntime(file: string, text: string): Promise<unknown> {
  // Its scanner is quadratic on some template text: over the work budget, refuse with a position instead.
  const overrun = templateCostOverrun(text);
  if (overrun) throw templateCostError(file, overrun);
  try {
    return await hcl2jsonRuntime().parse(file, text);
  } catch (e) {
    if (!isDeadRuntimeError(e)) throw e;
    replaceRuntime();
    return hcl2jsonRuntime().parse(file, text);
  }
}

function replaceRuntime(): void {
  for (const key of Object.keys(require.cache)) if (key.startsWith(PACKAGE_DIR + path.sep)) delete require.cache[key];
  current = null;
  if (!guardInstalled) {
    guardInstalled = true;
    process.on("uncaughtException", (err) => {
      if (isDeadRuntimeError(err) && /wasm_exec/.test(String(err.stack))) return; // the old runtime's timers
      // Anything else keeps Node's behaviour: report and exit.
      process.stderr.write(`${err.stack ?? err}\n`);
      process.exit(70);
    });
  }
}
