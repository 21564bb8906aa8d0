// `scan` builds the instances without state of a big estate on root workers (src/estate/parallel/); forced
// on a small multi-root tree (CFWM_ROOT_WORKERS), every format, the exit code and stderr are byte for byte
// what the main thread alone gives: with states (those instances stay on the main thread) and without, with
// a syntax error in one root, with a file that cannot be read. A run with `--var` values starts no worker. A worker that throws or dies ends the run with exit 2 and one line on stderr;
// SIGINT while a worker is busy still removes the spill directory.
import { execa } from "execa";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, runCli, TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";

const work = mkdtempSync(path.join(os.tmpdir(), "scan-root-workers-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FORMATS = ["json", "text", "sarif"];

/** testdata/estate copied, so a test can break one of its files. */
function estateCopy(label: string): string {
  const dir = path.join(work, label);
  cpSync(path.join(TESTDATA, "estate"), dir, { recursive: true });
  return dir;
}

async function scanWith(workers: string, cwd: string, args: string[], label: string) {
  const out = path.join(work, `${label}-${workers}`);
  const tmp = mkdtempSync(path.join(work, "tmp-"));
  const r = await runCli(["scan", ".", ...args, ...FORMATS.flatMap((f) => ["--format", `${f}=${path.join(out, f)}`]), "--quiet"], {
    cwd,
    env: { TMPDIR: tmp, CFWM_ROOT_WORKERS: workers },
  });
  const files = Object.fromEntries(FORMATS.map((f) => [f, readFileSync(path.join(out, f), "utf8")]));
  return { exitCode: r.exitCode, stderr: r.stderr, files, tmpLeft: readdirSync(tmp) };
}

describe("scan on root workers", () => {
  const cases: [string, string[]][] = [
    ["without state", []],
    ["with states (their instances on the main thread)", ESTATE_STATES.flatMap((s) => ["--state", s])],
  ];
  for (const [name, args] of cases) {
    it(`gives the main thread's reports, ${name}`, async () => {
      const dir = path.join(TESTDATA, "estate");
      const label = name.replace(/\W+/g, "-");
      const alone = await scanWith("0", dir, args, label);
      const two = await scanWith("2", dir, args, label);
      const one = await scanWith("1", dir, args, label);
      expect(alone.files["json"]).toContain('"resources"');
      for (const r of [two, one]) {
        expect(r.exitCode).toBe(alone.exitCode);
        expect(r.stderr).toBe(alone.stderr);
        for (const f of FORMATS) expect(r.files[f], f).toBe(alone.files[f]);
        expect(r.tmpLeft).toEqual([]);
      }
    });
  }

  it("gives gate's report as the main thread does: gate's checks are taken where each instance is built", async () => {
    const dir = path.join(TESTDATA, "estate");
    const gateWith = async (workers: string) => {
      const out = path.join(work, `gate-${workers}`);
      const tmp = mkdtempSync(path.join(work, "tmp-"));
      const r = await runCli(["gate", ".", "--target-provider", "5", ...FORMATS.flatMap((f) => ["--format", `${f}=${path.join(out, f)}`]), "--quiet"], { cwd: dir, env: { TMPDIR: tmp, CFWM_ROOT_WORKERS: workers } });
      return { exitCode: r.exitCode, stderr: r.stderr, files: Object.fromEntries(FORMATS.map((f) => [f, readFileSync(path.join(out, f), "utf8")])), tmpLeft: readdirSync(tmp) };
    };
    const alone = await gateWith("0");
    const one = await gateWith("1");
    // The gate's own findings (provider versions over the legacy resources) are there to be compared.
    expect(alone.files["json"]).toMatch(/"code": "PROVIDER_/);
    expect(one.exitCode).toBe(alone.exitCode);
    expect(one.stderr).toBe(alone.stderr);
    for (const f of FORMATS) expect(one.files[f], f).toBe(alone.files[f]);
    expect(one.tmpLeft).toEqual([]);
    // The worker did build instances for the gate: one that throws ends the gated run.
    const faulty = await runCli(["gate", ".", "--format", "json", "--quiet"], { cwd: dir, env: { TMPDIR: mkdtempSync(path.join(work, "tmp-")), CFWM_ROOT_WORKERS: "1", CFWM_ROOT_WORKER_FAULT: "throw" } });
    expect(faulty.exitCode).toBe(2);
    expect(faulty.stderr).toMatch(/root worker fault injected/);
  });

  it("reports a root's syntax error as the main thread does", async () => {
    const dir = estateCopy("broken");
    appendFileSync(path.join(dir, "live/staging/main.tf"), '\nresource "cloudflare_waf_package" "broken" {\n  zone_id = \n');
    const alone = await scanWith("0", dir, [], "broken");
    const two = await scanWith("2", dir, [], "broken");
    expect(alone.stderr).toContain("live/staging/main.tf:14:13");
    expect(two.exitCode).toBe(alone.exitCode);
    expect(two.stderr).toBe(alone.stderr);
    for (const f of FORMATS) expect(two.files[f], f).toBe(alone.files[f]);
  });

  it("reports a file that cannot be read as the main thread does", async () => {
    const dir = estateCopy("unreadable");
    symlinkSync(path.join(work, "no-such-file.tf"), path.join(dir, "live/staging/broken.tf"));
    const alone = await scanWith("0", dir, [], "unreadable");
    const two = await scanWith("2", dir, [], "unreadable");
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain("live/staging/broken.tf: cannot read");
    expect(two.exitCode).toBe(alone.exitCode);
    expect(two.stderr).toBe(alone.stderr);
    for (const f of FORMATS) expect(two.files[f], f).toBe(alone.files[f]);
  });

  for (const fault of ["throw", "exit"]) {
    it(`ends with exit 2 and one line when a worker ${fault === "throw" ? "throws" : "dies"}`, async () => {
      const tmp = mkdtempSync(path.join(work, "tmp-"));
      const r = await runCli(["scan", ".", "--format", "json", "--quiet"], {
        cwd: path.join(TESTDATA, "estate"),
        env: { TMPDIR: tmp, CFWM_ROOT_WORKERS: "2", CFWM_ROOT_WORKER_FAULT: fault },
      });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(fault === "throw" ? /^cf-waf-migrate: internal error: root worker fault injected second line/ : /^cf-waf-migrate: internal error: a root worker stopped \(exit code 3\)/);
      expect(readdirSync(tmp)).toEqual([]);
    });
  }

  it("ends with exit 2 and one line when a worker fails while this thread is still handing out roots (300 roots)", async () => {
    // A failure answered before the last root is handed out was an unhandled rejection: a stack trace, exit 1.
    const dir = path.join(work, "many-roots");
    for (let i = 0; i < 300; i++) {
      mkdirSync(path.join(dir, `live/r${i}`), { recursive: true });
      writeFileSync(path.join(dir, `live/r${i}/main.tf`), `resource "cloudflare_waf_package" "owasp" {\n  zone_id    = "0da42c8d2132a9ddaf714f9e7c92${String(i).padStart(4, "0")}"\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n}\n`);
    }
    const tmp = mkdtempSync(path.join(work, "tmp-"));
    const r = await runCli(["scan", ".", "--format", "json", "--quiet"], { cwd: dir, env: { TMPDIR: tmp, CFWM_ROOT_WORKERS: "2", CFWM_ROOT_WORKER_FAULT: "throw" } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^cf-waf-migrate: internal error: root worker fault injected second line/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("starts no worker when --var gives a value (it would have to be sent to the worker)", async () => {
    // A worker would throw: the run succeeding shows none started.
    const r = await runCli(["scan", ".", "--var", "zone_id=secret-value", "--format", "json", "--quiet"], {
      cwd: path.join(TESTDATA, "estate"),
      env: { CFWM_ROOT_WORKERS: "2", CFWM_ROOT_WORKER_FAULT: "throw" },
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).not.toBe(2);
  });

  it("removes its spill directory on SIGINT while a worker is busy, then dies of the signal", async () => {
    const tmp = mkdtempSync(path.join(work, "tmp-"));
    const child = execa("node", [BIN, "scan", ".", "--format", "json", "--quiet"], {
      cwd: path.join(TESTDATA, "estate"),
      env: { TMPDIR: tmp, CFWM_ROOT_WORKERS: "2", CFWM_ROOT_WORKER_FAULT: "hang", NO_COLOR: "1" },
      reject: false,
      timeout: 60_000,
    });
    // The spill directory and a worker's record files exist once the workers have started.
    for (let i = 0; i < 600; i++) {
      const dirs = readdirSync(tmp);
      if (dirs.length === 1 && readdirSync(path.join(tmp, dirs[0]!)).some((f) => f.startsWith("w"))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(readdirSync(tmp)).toHaveLength(1);
    child.kill("SIGINT");
    const r = await child;
    expect(r.signal).toBe("SIGINT");
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe("gate, whose checks see every instance (estate/gate-stream.ts)", () => {
  it("builds every instance on the main thread whatever CFWM_ROOT_WORKERS says: the same report", async () => {
    const gate = (workers: string) => runCli(["gate", ".", "--format", "json", "--fail-on", "never"], { cwd: path.join(TESTDATA, "estate"), env: { CFWM_ROOT_WORKERS: workers } });
    const [none, forced] = await Promise.all([gate("0"), gate("2")]);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stdout).toBe(none.stdout);
    expect(forced.stderr).toBe(none.stderr);
  });
});
