// A report the system will not take (stdout redirected to a full disk, --output on one) is one line on stderr
// and exit 2, as every other failure the user can fix: before, stdout's failure was an uncaught exception
// with a stack trace and exit 1 (which reads as "findings"), and --output's an "internal error".
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, TESTDATA } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

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

describe("an estate's plan that cannot be written whole", () => {
  it("leaves none of its roots' files behind (without --force), and says so in one line", async () => {
    const dir = tempDir("cfwm-estate-out-");
    const out = path.join(dir, "out");
    // live/prod is written first; live/staging's directory cannot be made (a file has its name).
    mkdirSync(path.join(out, "live"), { recursive: true });
    writeFileSync(path.join(out, "live", "staging"), "not a directory\n");
    const r = await runCli(["plan", ".", "--out-dir", out, "--format", "json", "--quiet"], { cwd: path.join(TESTDATA, "estate") });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`cf-waf-migrate: cannot write the estate's plan to ${out}: EEXIST`);
    expect(r.stderr.trimEnd().endsWith(`; nothing of the estate's plan was left in ${out}`)).toBe(true);
    expect(readdirSync(path.join(out, "live", "prod"))).toEqual([]);
    expect(existsSync(path.join(out, "ESTATE.md"))).toBe(false);
    expect(readFileSync(path.join(out, "live", "staging"), "utf8")).toBe("not a directory\n");
  });
});
