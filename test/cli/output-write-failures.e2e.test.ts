// A report the system will not take (stdout redirected to a full disk, --output on one) is one line on stderr
// and exit 2, as every other failure the user can fix: before, stdout's failure was an uncaught exception
// with a stack trace and exit 1 (which reads as "findings"), and --output's an "internal error".
import { spawn } from "node:child_process";
import { existsSync, openSync, closeSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, TESTDATA } from "../support/cli.js";

const FULL = "/dev/full"; // every write fails with ENOSPC (Linux)

/** The CLI with its stdout on `stdoutFd`; resolves with its exit code and stderr. */
function run(args: string[], stdoutFd: number | "pipe"): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: path.join(TESTDATA, "multi-zone"), stdio: ["ignore", stdoutFd, "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe.runIf(existsSync(FULL))("a report that cannot be written", () => {
  it("stdout on a full disk: one line, exit 2", async () => {
    const fd = openSync(FULL, "w");
    try {
      const r = await run(["scan", ".", "--format", "json"], fd);
      expect(r.stderr).toBe("cf-waf-migrate: cannot write the report to standard output: ENOSPC: no space left on device, write\n");
      expect(r.code).toBe(2);
    } finally {
      closeSync(fd);
    }
  });

  it("--output on a full disk: one line naming it, exit 2", async () => {
    const r = await run(["scan", ".", "--format", "json", "--output", FULL], "pipe");
    expect(r.stderr).toBe(`cf-waf-migrate: cannot write the report to ${FULL}: ENOSPC: no space left on device, write\n`);
    expect(r.code).toBe(2);
  });
});
