// ANSI styling for the text report; a no-op style when colour is off (not a TTY, or NO_COLOR set).
import type { Severity } from "../core/model.js";

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  severity(sev: Severity, s: string): string;
  ok(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export function makeStyle(color: boolean): Style {
  if (!color) {
    const id = (s: string) => s;
    return { bold: id, dim: id, severity: (_sev, s) => s, ok: id };
  }
  const red = wrap(31, 39);
  const yellow = wrap(33, 39);
  const cyan = wrap(36, 39);
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    ok: wrap(32, 39),
    severity: (sev, s) => (sev === "error" ? red(s) : sev === "warning" ? yellow(s) : cyan(s)),
  };
}

/** Colour only on a terminal, never when NO_COLOR is set (https://no-color.org), forced by FORCE_COLOR. */
export function shouldColor(isTTY: boolean, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return isTTY;
}
