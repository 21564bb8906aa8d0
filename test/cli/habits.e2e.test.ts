// Terraform and TFLint users' habits (issue 17): -no-color/--no-color, -chdir/--chdir with terraform's
// meaning, --json, --minimum-failure-severity, and two or three examples plus the exit codes in every
// command's --help. One spawn per behaviour, run side by side.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli, TESTDATA, type CliResult } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
// @ts-expect-error the bench generator is plain JavaScript
import { ensureManyInstances } from "../../scripts/bench/generate.mjs";

const MZ = path.join(TESTDATA, "multi-zone");
const COMMANDS = ["scan", "plan", "gate", "certs", "apply", "api", "merge"];

type Json = { root: string; findings: { code: string; file: string | null; line: number | null }[] };

let plain: CliResult;
let chdir: CliResult;
let textNoColor: CliResult;
let badDir: CliResult;
let contradiction: CliResult;
let notice: CliResult;
let version: CliResult;
let helps: CliResult[];

beforeAll(async () => {
  [plain, chdir, textNoColor, badDir, contradiction, notice, version, ...helps] = await Promise.all([
    runCli(["scan", "testdata/multi-zone", "--state", "testdata/multi-zone/terraform.tfstate", "--format", "json"]),
    // terraform's spelling, from another directory: every path after it is relative to DIR.
    runCli(["scan", `-chdir=${path.relative(TESTDATA, MZ)}`, "--state", "terraform.tfstate", "--json", "--minimum-failure-severity", "warning"], { cwd: TESTDATA }),
    runCli(["gate", MZ, "--state", path.join(MZ, "terraform.tfstate"), "--format", "text", "-no-color"], { env: { FORCE_COLOR: "1", NO_COLOR: undefined } }),
    runCli(["scan", "--chdir", "no/such/dir"]),
    runCli(["scan", MZ, "--fail-on", "error", "--minimum-failure-severity", "warning"]),
    runCli(["gate", "--chdir", MZ, "--state", "terraform.tfstate", "--minimum-failure-severity", "notice", "--format", "compact"]),
    runCli(["--version"]),
    ...COMMANDS.map((c) => runCli([c, "--help"])),
  ]);
}, 120_000);

describe("CLI habits of Terraform and TFLint users", () => {
  it("-chdir=DIR switches the working directory first: the same findings, paths relative to DIR; --json is --format json", () => {
    expect(plain.exitCode).toBe(0);
    expect(chdir.exitCode, chdir.stderr).toBe(1); // --minimum-failure-severity warning: warnings fail the run
    const a = JSON.parse(plain.stdout) as Json;
    const b = JSON.parse(chdir.stdout) as Json;
    expect(a.root).toBe("testdata/multi-zone");
    expect(b.root).toBe(".");
    expect(b.findings).toEqual(a.findings);
  });

  it("--version prints the package's version and nothing else", () => {
    const pkg = JSON.parse(readFileSync(path.join(TESTDATA, "..", "package.json"), "utf8")) as { version: string };
    expect(version.exitCode).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    expect(version.stderr).toBe("");
  });

  it("-no-color wins over FORCE_COLOR", () => {
    expect(textNoColor.exitCode).toBe(1);
    expect(textNoColor.stdout).toContain("GATE FAILED");
    expect(textNoColor.stdout).not.toContain("\u001b[");
  });

  it("a --chdir that does not exist, or contradicting failure levels, are one-line usage errors (exit 2)", () => {
    expect(badDir.exitCode).toBe(2);
    expect(badDir.stderr.trim()).toBe("cf-waf-migrate: --chdir no/such/dir: no such directory");
    expect(contradiction.exitCode).toBe(2);
    expect(contradiction.stderr.trim()).toMatch(/^cf-waf-migrate: --minimum-failure-severity warning means --fail-on warning, but --fail-on error was given too/);
  });

  it("--minimum-failure-severity notice is --fail-on info; --format compact is TFLint's compact", () => {
    expect(notice.exitCode).toBe(1);
    const lines = notice.stdout.split("\n");
    expect(lines[0]).toMatch(/^\d+ issue\(s\) found:$/);
    expect(lines[1]).toBe("");
    expect(lines[2]).toMatch(/^[^:]+:\d+:0: (Error|Warning|Notice) - .+ \([A-Z_]+\)$/);
  });

  it("a reader that closes the pipe early ends the run quietly, not with an EPIPE stack trace", async () => {
    const { execa } = await import("execa");
    // A report well over a pipe's buffer (64 KB), so writes are still pending when the reader goes away.
    const dir = tempDir("cfwm-epipe-");
    ensureManyInstances(dir, { seed: 7, instances: 1000, shape: "one" });
    const child = execa("node", [BIN, "scan", dir, "--state", path.join(dir, "terraform.tfstate"), "--format", "json", "--quiet"], { reject: false, env: { NO_COLOR: "1" }, stdin: "ignore" });
    // Read the first chunk, then close our end, as `| head -c 1` does.
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    child.stdout!.destroy();
    const r = await child;
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect([0, 1]).toContain(r.exitCode);
  });

  it.each(COMMANDS.map((c, i) => [c, i] as const))("%s --help shows examples and the exit-code convention", (command, i) => {
    const help = helps[i]!;
    expect(help.exitCode).toBe(0);
    const examples = help.stdout.slice(help.stdout.indexOf("Examples:"));
    expect(examples.match(new RegExp(`cf-waf-migrate ${command} `, "g"))?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(help.stdout).toContain("ESLint/Checkov convention");
    expect(help.stdout).toContain("-detailed-exitcode");
  });
});
