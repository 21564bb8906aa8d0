// What a plain scan makes Node load. Built-in modules the scan path does not use cost start-up CPU on every
// run (each ~2–4 ms: node:crypto with its dozen internal modules, worker_threads, perf_hooks); they are
// loaded where they are used — the first atomic write, the first online cache key, the parse pool's
// start, a progress bar that draws — and a small scan uses none of them; yargs' two assert checks are inlined
// (scripts/lazy-yargs-assert.mjs). Nor does a run look for a
// package.json above the working directory (yargs' version guess, scripts/yargs-no-version-guess.mjs).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, TESTDATA } from "../support/cli.js";

const dir = mkdtempSync(path.join(tmpdir(), "startup-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const preload = path.join(dir, "modules.cjs");
writeFileSync(preload, 'process.on("exit", () => require("fs").writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join("\\n")));\n');

async function loadedBy(args: string[]): Promise<string[]> {
  const out = path.join(dir, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const r = await execa("node", ["--require", preload, BIN, ...args], { reject: false, env: { NO_COLOR: "1", MODULES_OUT: out } });
  expect(r.exitCode, r.stderr as string).toBe(0);
  return readFileSync(out, "utf8").split("\n");
}

describe("start-up of a scan", () => {
  it("loads neither node:crypto, worker_threads, perf_hooks nor assert", async () => {
    const mods = await loadedBy(["scan", path.join(TESTDATA, "multi-zone"), "--state", path.join(TESTDATA, "multi-zone/terraform.tfstate"), "--format", "json", "--fail-on", "never", "--quiet"]);
    expect(mods).toContain("NativeModule fs"); // the list is Node's, as expected
    for (const m of ["NativeModule crypto", "NativeModule worker_threads", "NativeModule perf_hooks", "NativeModule assert"]) expect(mods).not.toContain(m);
  });

  it("loads node:crypto once it writes a file atomically (--output)", async () => {
    const mods = await loadedBy(["scan", path.join(TESTDATA, "multi-zone"), "--format", "json", "--fail-on", "never", "--quiet", "--output", path.join(dir, "report.json")]);
    expect(mods).toContain("NativeModule crypto");
    expect(JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8"))).toHaveProperty("findings");
  });

  it("lists no directory above the working directory and reads no package.json but its own", async () => {
    // A user's repository: a package.json at its top, the command run from a directory below it.
    const repo = mkdtempSync(path.join(dir, "repo-"));
    const cwd = path.join(repo, "infra", "live");
    mkdirSync(cwd, { recursive: true });
    writeFileSync(path.join(repo, "package.json"), '{ "name": "users-own", "version": "9.9.9" }');
    const log = path.join(dir, `fs-${Math.random().toString(36).slice(2)}.json`);
    const spy = path.join(dir, "fs-spy.cjs");
    writeFileSync(
      spy,
      `const fs = require("fs"); const seen = [];
for (const name of ["readdirSync", "readFileSync"]) { const real = fs[name]; fs[name] = function (p, ...rest) { seen.push([name, String(p)]); return real.call(this, p, ...rest); }; }
process.on("exit", () => require("fs").writeFileSync(process.env.FS_OUT, JSON.stringify(seen)));\n`,
    );
    const r = await execa("node", ["--require", spy, BIN, "scan", path.join(TESTDATA, "multi-zone"), "--format", "json", "--fail-on", "never", "--quiet"], { cwd, reject: false, env: { NO_COLOR: "1", FS_OUT: log } });
    expect(r.exitCode, r.stderr as string).toBe(0);
    const seen = JSON.parse(readFileSync(log, "utf8")) as [string, string][];
    // The scan's own spill directory (estate/spill/temp-dir.ts) is listed when it is removed: not above the working directory.
    const spill = path.join(tmpdir(), "cf-waf-migrate-");
    expect(seen.filter(([name, p]) => name === "readdirSync" && !path.resolve(cwd, p).startsWith(TESTDATA) && !p.startsWith(spill))).toEqual([]);
    expect(seen.filter(([, p]) => p.endsWith("package.json") && !p.includes(path.join(path.dirname(BIN), "..", "..")))).toEqual([]);
  });
});

