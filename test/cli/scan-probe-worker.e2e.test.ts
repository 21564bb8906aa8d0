// `scan` shares a big tree's first read with a worker (src/terraform/config/probe-pool.ts); forced on small
// trees in real shapes (CFWM_PROBE_WORKER=1; CFWM_ROOT_WORKERS=1 makes a small tree's scan read it in that
// first pass, as a big tree's does), every format, the exit code and stderr are byte for byte what this
// thread alone gives, with the input errors of unrelated files, and when the worker dies.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";

const work = mkdtempSync(path.join(os.tmpdir(), "scan-probe-worker-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FORMATS = ["json", "text", "sarif"];

async function scanWith(env: Record<string, string>, cwd: string, args: string[], label: string) {
  const out = mkdtempSync(path.join(work, `${label}-`));
  const r = await runCli(["scan", ".", ...args, ...FORMATS.flatMap((f) => ["--format", `${f}=${path.join(out, f)}`]), "--quiet"], { cwd, env: { CFWM_ROOT_WORKERS: "1", ...env } });
  return { exitCode: r.exitCode, stderr: r.stderr, files: Object.fromEntries(FORMATS.map((f) => [f, readFileSync(path.join(out, f), "utf8")])) };
}

describe("scan with the first read shared", () => {
  it("gives this thread's reports on an estate of roots, workspaces and shared modules, with states", async () => {
    const dir = path.join(TESTDATA, "estate");
    const args = ESTATE_STATES.flatMap((s) => ["--state", s]);
    const alone = await scanWith({ CFWM_PROBE_WORKER: "0" }, dir, args, "estate");
    const shared = await scanWith({ CFWM_PROBE_WORKER: "1" }, dir, args, "estate");
    expect(alone.files["json"]).toContain("cloudflare_waf_package");
    expect(shared.exitCode).toBe(alone.exitCode);
    expect(shared.stderr).toBe(alone.stderr);
    for (const f of FORMATS) expect(shared.files[f], f).toBe(alone.files[f]);
  });

  it("reports unrelated files' errors as this thread does, and reads here what a dying worker held", async () => {
    const dir = path.join(work, "examples");
    cpSync(path.join(TESTDATA, "realworld-module-examples"), dir, { recursive: true });
    writeFileSync(path.join(dir, "unrelated.tf"), 'resource "aws_s3_bucket" "c" {\n  bucket = "x"\n');
    writeFileSync(path.join(dir, "latin1.tf"), Buffer.from('locals {\n  x = "caf\xe9"\n}\n', "latin1"));
    const alone = await scanWith({ CFWM_PROBE_WORKER: "0" }, dir, [], "examples");
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain("unrelated.tf:1");
    expect(alone.stderr).toContain("latin1.tf:2");
    for (const env of [{ CFWM_PROBE_WORKER: "1" }, { CFWM_PROBE_WORKER: "1", CFWM_PROBE_WORKER_FAULT: "exit" }]) {
      const shared = await scanWith(env, dir, [], "examples");
      expect(shared.exitCode).toBe(alone.exitCode);
      expect(shared.stderr).toBe(alone.stderr);
      for (const f of FORMATS) expect(shared.files[f], f).toBe(alone.files[f]);
    }
  });
});
