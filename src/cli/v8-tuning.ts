// The command line's first module (main.ts imports it before anything else): tunes V8 for this process.
//
// V8 hands a function to its optimising compiler (TurboFan, on a background thread) once the function has
// run through a budget of bytecode. The default budget suits long-lived servers; a CLI run is short, and on
// a 10-file scan TurboFan compiled the hot parser and evaluator functions for ~70 ms of background CPU
// to save ~20 ms on the main thread — then many of them deoptimised on the next input shape and were
// compiled again. Sixteen times the budget leaves short runs in Sparkplug (baseline) code and still
// optimises what a long run keeps hot, a few milliseconds later. Measured (least user+sys CPU, busy 2-core
// machine): 10-file scan 264 → 209 ms; 400-file 20 MB tree 4.28 → 3.59 s; 50 MB state 1.89 → 1.53 s; wall
// no worse. The library (import "cf-waf-migrate") leaves its host's V8 alone: only the CLI imports this.
import { setFlagsFromString } from "node:v8";
import { INTERRUPT_BUDGET, userChoseBudget, userChoseFlag, WASM_TIERING_BUDGET } from "./v8-budget.js";

if (!userChoseBudget(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);

// The same for WebAssembly: hcl2json (Go compiled to WASM) judges what the fast reader leaves to it, often
// one small file (a syntax error, an unusual construct). Loading it runs the Go runtime's start-up loops,
// and with V8's default budget about twenty of those huge functions went to TurboFan at once: ~0.2–0.5 s
// of CPU for a runtime that then parses a few hundred bytes. A hundred times the budget leaves start-up
// in Liftoff (baseline) code; a long parse still tiers up its hot functions. Measured (user CPU, busy
// 2-core machine): load + one parse 0.36 → 0.17 s; a plan of testdata/multi-zone in this repository
// (its search of the other roots meets two files hcl2json must read) 1.1–1.2 → 0.6–0.7 s; --full-parse of
// a 10 MB tree 11.3–11.7 → 10.5–11.3 s.
if (!userChoseFlag("wasm-tiering-budget", process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
