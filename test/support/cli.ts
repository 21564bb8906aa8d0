// Runs the built CLI (dist/, built by `npm test`'s pretest) as a user would, capturing output and exit code.
import { execa } from "execa";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = path.join(ROOT, "dist/cli/main.js");
export const TESTDATA = path.join(ROOT, "testdata");

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export async function runCli(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string | Buffer } = {},
): Promise<CliResult> {
  const r = await execa("node", [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { NO_COLOR: "1", ...opts.env },
    ...(opts.input !== undefined ? { input: opts.input } : { stdin: "ignore" }),
    reject: false,
    // A deadline for a CLI that hangs, not a speed check: three test files run at once on a busy machine.
    timeout: 180_000,
  });
  return { stdout: r.stdout as string, stderr: r.stderr as string, exitCode: r.exitCode ?? -1 };
}

/** The JSON report with the tool version blanked, for golden comparisons across releases. */
export function normalizeReport(json: string): unknown {
  const doc = JSON.parse(json) as { tool?: { version?: string } };
  if (doc.tool) doc.tool.version = "<version>";
  return doc;
}
