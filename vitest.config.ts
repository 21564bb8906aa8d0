import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The groups that drive the real terraform and the provider double through whole migrations, kills and
 * reruns: a file there runs for 15–80 s, against 1–5 s for most others.
 */
const LONG_RUNNING = ["test/e2e/", "test/double/"];

/**
 * Long-running files first, then Vitest's own order. Without a results cache (a clean clone, as in CI)
 * Vitest runs larger files first, and the kill tests are among the smallest files (0.2–3 KB): in a
 * clean-clone run the last three files to finish were the three kill tests (17, 45 and 79 s), the suite's
 * tail. Started first, they overlap with the many short files.
 */
class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = (f: TestSpecification) => LONG_RUNNING.some((dir) => f.moduleId.replaceAll("\\", "/").includes(`/${dir}`));
    return [...sorted.filter(long), ...sorted.filter((f) => !long(f))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Every temporary directory of the run lives under one, removed at the end (test/support/suite-tmpdir.ts).
    globalSetup: ["test/support/suite-tmpdir.ts"],
    // Vitest's default on a 2-core machine is one worker (cores - 1): every file ran after the other while
    // the end-to-end files mostly wait on the processes they spawn (the CLI, terraform, the fake API).
    // Three workers overlap those waits; measured on the six CLI end-to-end files of test/cli on a busy
    // 2-core machine: 132 s wall with one worker, 111 s with three, the same CPU. Files run in separate
    // processes (forks), and every test works in its own temporary directory.
    pool: "forks",
    maxWorkers: 3,
    sequence: { sequencer: LongRunningFirst },
    // Each worker keeps its module graph from one test file to the next instead of importing every module
    // again per file: measured on the 65 files of test/core, render, terraform, estate and online on a quiet
    // 2-core machine, 137 s CPU and 71 s wall with isolation, 65 s CPU and 35 s wall without. Tests share no
    // module state they rely on (each works in its own temporary directory, restores spies and exit codes),
    // and the whole suite passes this way.
    isolate: false,
    // Deadlines, not speed checks: generous enough for a busy shared machine running three files at once.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
