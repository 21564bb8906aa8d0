// The tier-up budget the command line gives V8 (applied by ./v8-tuning.ts, which says why), and whether
// the user already chose one.

/** V8's default --interrupt-budget (11.3, Node 20: 66 KB of bytecode) times sixteen. */
export const INTERRUPT_BUDGET = 16 * 67_584;

/** A budget the user chose (node --interrupt-budget=…, or NODE_OPTIONS) wins. */
export function userChoseBudget(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((a) => /^--interrupt[-_]budget(=|$)/.test(a));
}
