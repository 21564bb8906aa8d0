// A private directory for what a run spills to disk (estate/spill/records.ts): made with mkdtemp under the
// system's temporary directory (never the user's home), mode 0700, and removed when the run ends, however
// it ends: by `remove()` (callers call it in `finally`), at process exit, or on SIGINT/SIGTERM (removed,
// then the signal is raised again so the process dies of it as it would have).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface SpillDir {
  /** Absolute path of the directory. */
  path: string;
  /** Removes the directory and everything in it; idempotent. */
  remove(): void;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Creates the directory (0700: mkdtemp's mode) and arranges its removal. */
export function createSpillDir(prefix = "cf-waf-migrate-"): SpillDir {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    removed = true;
    rmSync(dir, { recursive: true, force: true });
    process.off("exit", remove);
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    remove();
    process.kill(process.pid, signal);
  };
  process.on("exit", remove);
  for (const s of SIGNALS) process.once(s, onSignal);
  return { path: dir, remove };
}
