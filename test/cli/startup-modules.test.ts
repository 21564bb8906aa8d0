// What a plain scan makes Node load. Built-in modules the scan path does not use cost start-up CPU on every
// run (each ~2–4 ms: node:crypto with its dozen internal modules, worker_threads, perf_hooks); they are
// loaded where they are used — the first atomic write, the first online cache key, the parse pool's
// start, a progress bar that draws — and a small scan uses none of them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  it("loads neither node:crypto, worker_threads nor perf_hooks", async () => {
    const mods = await loadedBy(["scan", path.join(TESTDATA, "multi-zone"), "--state", path.join(TESTDATA, "multi-zone/terraform.tfstate"), "--format", "json", "--fail-on", "never", "--quiet"]);
    expect(mods).toContain("NativeModule fs"); // the list is Node's, as expected
    for (const m of ["NativeModule crypto", "NativeModule worker_threads", "NativeModule perf_hooks"]) expect(mods).not.toContain(m);
  });

  it("loads node:crypto once it writes a file atomically (--output)", async () => {
    const mods = await loadedBy(["scan", path.join(TESTDATA, "multi-zone"), "--format", "json", "--fail-on", "never", "--quiet", "--output", path.join(dir, "report.json")]);
    expect(mods).toContain("NativeModule crypto");
    expect(JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8"))).toHaveProperty("findings");
  });
});
