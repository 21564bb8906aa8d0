// One temporary directory for the whole run, removed when it ends. Every test makes its working copies with
// mkdtemp under os.tmpdir() (support/workdir.ts) and most do not remove them: a run left about 900
// directories in /tmp, and a machine that runs the suite many times filled its disk (22,000 directories,
// 13 GB, measured here). TMPDIR points the test workers, and every process they spawn (the CLI, terraform,
// the provider double), at this run's directory instead; the teardown removes it whole.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-suite-"));
  const before = process.env.TMPDIR;
  // Vitest starts its workers after the global set-up, with this process's environment.
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
