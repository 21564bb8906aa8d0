// `scan`'s JSON report with its findings merged on a worker (src/estate/spill/merge-offload.ts; forced on
// small trees with CFWM_MERGE_WORKER=1): byte for byte what this thread alone writes, to stdout and to a
// file in one run (the second JSON report merges on this thread), and when the worker fails part-way.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cloudflareTreeFiles } from "../../scripts/bench/generate.mjs";
import { ROOT, runCli, TESTDATA } from "../support/cli.js";
import { ESTATE_STATES } from "../support/estate.js";

const work = mkdtempSync(path.join(os.tmpdir(), "scan-merge-worker-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A Cloudflare-heavy tree of 10 files: ~460 findings, a JSON report of ~0.5 MB (many of the worker's pieces). */
function heavyTree(): string {
  const dir = path.join(work, "heavy");
  for (const [name, text] of cloudflareTreeFiles({ seed: 20240601, files: 10, bytes: 200_000 }) as Map<string, string>) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function scanWith(env: Record<string, string>, cwd: string, args: string[], label: string, command = "scan") {
  const file = path.join(mkdtempSync(path.join(work, `${label}-`)), "report.json");
  const r = await runCli([command, ".", ...args, "--format", "json", "--format", `json=${file}`, "--fail-on", "never", "--quiet"], { cwd, env });
  return { exitCode: r.exitCode, stderr: r.stderr, stdout: r.stdout, file: readFileSync(file, "utf8") };
}

describe("scan with the findings merged on a worker", () => {
  it("is built beside the command line", () => {
    expect(existsSync(path.join(ROOT, "dist/cli/merge-worker.js"))).toBe(true);
  });

  for (const [label, dir, args] of [
    ["heavy", heavyTree(), []],
    ["estate", path.join(TESTDATA, "estate"), ESTATE_STATES.flatMap((s) => ["--state", s])],
  ] as const) {
    it(`writes this thread's JSON report (${label}), also when the worker fails part-way`, async () => {
      const alone = await scanWith({ CFWM_MERGE_WORKER: "0" }, dir, [...args], `${label}-alone`);
      expect(alone.stdout).toContain('"findings": [');
      // (execa drops stdout's last line break.)
      expect(alone.file).toBe(`${alone.stdout}\n`);
      // Also with the list's tail (info findings) left to the main thread, and with a worker that fails.
      for (const env of [{ CFWM_MERGE_WORKER: "1" }, { CFWM_MERGE_WORKER: "1", CFWM_MERGE_WORKER_FAULT: "no-tail" }, { CFWM_MERGE_WORKER: "1", CFWM_MERGE_WORKER_FAULT: "throw" }]) {
        const shared = await scanWith(env, dir, [...args], `${label}-worker`);
        expect(shared.exitCode).toBe(alone.exitCode);
        expect(shared.stderr).toBe(alone.stderr);
        expect(shared.stdout).toBe(alone.stdout);
        expect(shared.file).toBe(alone.file);
      }
    });
  }

  it("writes gate's JSON report, the gate's findings merged in, as this thread alone does", async () => {
    const dir = heavyTree();
    const target = ["--target-provider", "4.52.0"];
    const alone = await scanWith({ CFWM_MERGE_WORKER: "0" }, dir, target, "gate-alone", "gate");
    // The gate adds a finding of its own to the scan's.
    expect(alone.stdout).toContain('"code": "PROVIDER_UPGRADE_BLOCKED"');
    for (const env of [{ CFWM_MERGE_WORKER: "1" }, { CFWM_MERGE_WORKER: "1", CFWM_MERGE_WORKER_FAULT: "no-tail" }]) {
      const shared = await scanWith(env, dir, target, "gate-worker", "gate");
      expect(shared.exitCode).toBe(alone.exitCode);
      expect(shared.stdout).toBe(alone.stdout);
      expect(shared.file).toBe(alone.file);
    }
  });
});
