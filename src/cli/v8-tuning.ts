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
import { INTERRUPT_BUDGET, userChoseBudget } from "./v8-budget.js";

if (!userChoseBudget(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
