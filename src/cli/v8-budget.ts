// The tier-up budgets the command line gives V8 (applied by ./v8-tuning.ts, which says why), and whether
// the user already chose one.

/** V8's default --interrupt-budget (11.3, Node 20: 66 KB of bytecode) times sixteen. */
export const INTERRUPT_BUDGET = 16 * 67_584;

/** V8's default --wasm-tiering-budget (11.3, Node 20: 1,800,000, roughly bytes executed per function) times a hundred. */
export const WASM_TIERING_BUDGET = 100 * 1_800_000;

/** A budget the user chose (node --interrupt-budget=…, or NODE_OPTIONS) wins. */
export function userChoseBudget(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return userChoseFlag("interrupt-budget", execArgv, nodeOptions);
}

/** Whether `node --NAME…` (either spelling, `-` or `_`) is among the process's flags or NODE_OPTIONS. */
export function userChoseFlag(name: string, execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const flag = new RegExp(`^--${name.replace(/[-_]/g, "[-_]")}(=|$)`);
  return [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((a) => flag.test(a));
}
