// Durations as people type them on a command line (`90s`, `15m`, `2h`, `1d`, or plain seconds). Pure.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration text; null when it is not one. `0` is allowed (nothing is fresh enough). */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!m) return null;
  const value = Number(m[1]);
  const unit = UNITS[(m[2] ?? "s").toLowerCase()]!;
  const ms = Math.round(value * unit);
  return Number.isFinite(ms) ? ms : null;
}
