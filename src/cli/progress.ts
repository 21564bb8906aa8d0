// A one-line progress bar on stderr for long scans. It shows only when stderr is a terminal, not in CI
// (`CI` set) and not with --quiet, and only once a scan has taken more than a second, so short runs and
// piped output never see it. It is driven by loadWorkspace's `onProgress` callback:
//
//   const bar = new ProgressBar({ quiet: argv.quiet });
//   const ws = await loadWorkspace({ …, onProgress: (p) => bar.update(p) });
//   bar.done();
//
// Parsing blocks the event loop between files, so the bar is redrawn from `update` (at most every 100 ms),
// never from a timer.

export interface ProgressUpdate {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
}

export interface ProgressBarOptions {
  /** --quiet: never draw. */
  quiet?: boolean;
  /** Default: process.stderr. */
  stream?: Pick<NodeJS.WriteStream, "write"> & { isTTY?: boolean; columns?: number };
  /** Default: process.env (only `CI` is read). */
  env?: Record<string, string | undefined>;
  /** Nothing is drawn before this many milliseconds (default 1000). */
  delayMs?: number;
  /** Default: process.hrtime, in milliseconds. */
  now?: () => number;
  /** Default "scanning". */
  label?: string;
}

const REDRAW_MS = 100;

export class ProgressBar {
  readonly enabled: boolean;
  private readonly stream: NonNullable<ProgressBarOptions["stream"]>;
  private readonly now: () => number;
  private readonly start: number;
  private readonly delay: number;
  private readonly label: string;
  private lastDraw = -Infinity;
  private drawn = false;
  private finished = false;

  constructor(opts: ProgressBarOptions = {}) {
    this.stream = opts.stream ?? process.stderr;
    const env = opts.env ?? process.env;
    this.enabled = !opts.quiet && this.stream.isTTY === true && !inCi(env);
    // Monotonic milliseconds without `performance`: its first use loads perf_hooks, ~2 ms of every run.
    this.now = opts.now ?? (() => Number(process.hrtime.bigint()) / 1e6);
    this.start = this.now();
    this.delay = opts.delayMs ?? 1000;
    this.label = opts.label ?? "scanning";
  }

  update(p: ProgressUpdate): void {
    if (!this.enabled || this.finished) return;
    const t = this.now();
    if (t - this.start < this.delay) return;
    // Always draw the last file; otherwise at most every REDRAW_MS.
    if (t - this.lastDraw < REDRAW_MS && p.filesDone < p.filesTotal) return;
    this.lastDraw = t;
    this.drawn = true;
    this.stream.write(`\r${this.line(p, t)}\x1b[K`);
  }

  /** Clears the bar (if it was drawn); later updates are ignored. */
  done(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.drawn) this.stream.write("\r\x1b[K");
  }

  /** The text of the bar, fitted to the terminal width. */
  line(p: ProgressUpdate, t: number = this.now()): string {
    const total = Math.max(p.filesTotal, p.filesDone, 1);
    const frac = Math.min(1, p.filesDone / total);
    const secs = Math.max(0, (t - this.start) / 1000);
    const tail = ` ${String(Math.round(frac * 100)).padStart(3)}% ${p.filesDone}/${p.filesTotal} files ${(p.bytesDone / 1e6).toFixed(1)} MB ${secs.toFixed(0)}s`;
    const columns = this.stream.columns && this.stream.columns > 20 ? this.stream.columns : 80;
    const width = Math.max(10, Math.min(40, columns - 1 - this.label.length - 1 - tail.length - 2));
    const full = Math.round(frac * width);
    const bar = `[${"#".repeat(full)}${"-".repeat(width - full)}]`;
    return `${this.label} ${bar}${tail}`.slice(0, columns - 1);
  }
}

/** `CI` set to anything but an empty string, "0" or "false" (GitHub, GitLab, CircleCI, … set CI=true). */
function inCi(env: Record<string, string | undefined>): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false";
}
