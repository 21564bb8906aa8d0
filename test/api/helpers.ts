// Shared helpers of the API tests: run the `api` command through yargs and capture its output.

import yargs from "yargs";
import { createApiCommand, type ApiCommandDeps } from "../../src/cli/commands/api.js";

export const TOKEN = "tok_S3cr3tT0kenValue_9f8e7d6c5b4a";
export const EMAIL = "ops-lead@shop.example";
export const KEY = "c2547eb745079dac9320b638f5e225cf483cc5cfdda41";

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  /** What was thrown out of yargs (a bug, not a CliError), if anything. */
  thrown: unknown;
}

/** Runs `api …` through yargs with injected dependencies; sleep is instant unless given. */
export async function runApi(args: string[], deps: Partial<ApiCommandDeps> & { env: ApiCommandDeps["env"] }): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  const command = createApiCommand({
    isTTY: false,
    sleep: async () => {},
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    ...deps,
  });
  const previous = process.exitCode;
  process.exitCode = undefined;
  let thrown: unknown = undefined;
  try {
    await yargs()
      .command(command)
      .exitProcess(false)
      .fail((msg, err) => {
        throw err ?? new Error(msg);
      })
      .parseAsync(["api", ...args]);
  } catch (e) {
    thrown = e;
  }
  const exitCode = process.exitCode === undefined ? undefined : Number(process.exitCode);
  process.exitCode = previous;
  return { stdout, stderr, exitCode, thrown };
}

/** A clock that only moves when the injected sleep is called. */
export function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
    advance: (ms: number) => {
      t += ms;
    },
  };
}
