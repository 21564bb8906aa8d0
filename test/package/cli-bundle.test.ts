// The command line ships as a bundle (scripts/bundle-cli.mjs). What a bundle can break silently: the parse
// pool finds its worker by a path relative to the bundled code (a missing worker would quietly keep every
// parse on one thread), the version is read from ../../package.json relative to it, and V8's code cache for
// the bundle must be one that Node accepts (a rejected one costs nothing but the time it was meant to save).
import { parse } from "@cdktn/hcl2json";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { codeCacheFile, probeCacheFile } from "../../src/cli/cli-script.js";
import { BIN, ROOT } from "../support/cli.js";

const CLI_DIR = path.dirname(BIN);

function ask(worker: Worker, req: { id: number; file: string; text: string }): Promise<{ id: number; ok: boolean; body?: unknown; message?: string }> {
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.postMessage(req);
  });
}

describe("the bundled command line", () => {
  it("has the parse pool's worker beside it, and that worker answers as hcl2json does", async () => {
    const workerFile = path.join(CLI_DIR, "worker.js");
    expect(existsSync(workerFile)).toBe(true);
    // The bundled pool resolves `./worker.js` from the command line's bundle (cli.cjs, run as a classic
    // script whose `import.meta.url` is `__cli_url`, its own URL), which sits in the same directory.
    const bundle = readFileSync(path.join(CLI_DIR, "cli.cjs"), "utf8");
    expect(bundle).toContain('new URL("./worker.js", __cli_url)');
    const worker = new Worker(workerFile);
    try {
      const good = 'resource "cloudflare_waf_rule" "r" {\n  rule_id = "100000"\n  mode    = "block"\n}\n';
      const bad = 'resource "x" "y" {\n  a = [1,\n}\n';
      expect(await ask(worker, { id: 1, file: "good.tf", text: good })).toEqual({ id: 1, ok: true, body: await parse("good.tf", good) });
      const err = await parse("bad.tf", bad).then(
        () => "parsed",
        (e: Error) => e.message,
      );
      expect(await ask(worker, { id: 2, file: "bad.tf", text: bad })).toEqual({ id: 2, ok: false, message: err });
    } finally {
      await worker.terminate();
    }
  });

  it("reads its version from the package beside it", async () => {
    const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const r = await execa("node", [BIN, "--version"], { reject: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });
});

describe("the command line's code cache (src/cli/cli-script.ts)", () => {
  const bundle = path.join(CLI_DIR, "cli.cjs");
  const args = ["scan", path.join(ROOT, "testdata", "multi-zone"), "--format", "json", "--fail-on", "never", "--quiet"];
  const dir = mkdtempSync(path.join(tmpdir(), "cfwm-cache-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Records every vm.Script the binary compiles: its file (null: the probe), whether cached data came with
  // it, and whether V8 rejected that.
  const spy = path.join(dir, "vm-spy.cjs");
  writeFileSync(
    spy,
    `const vm = require("vm"); const Real = vm.Script; const seen = [];
vm.Script = class extends Real { constructor(src, opts) { super(src, opts); seen.push({ file: opts?.filename ?? null, cached: !!opts?.cachedData, rejected: this.cachedDataRejected ?? null }); } };
process.on("exit", () => require("fs").writeFileSync(process.env.VM_OUT, JSON.stringify(seen)));\n`,
  );
  async function run(bin: string, nodeFlags: string[] = []): Promise<{ exitCode: number | undefined; stderr: string; stdout: string; scripts: unknown[] }> {
    const out = path.join(dir, `vm-${Math.random().toString(36).slice(2)}.json`);
    const r = await execa("node", [...nodeFlags, "--require", spy, bin, ...args], { reject: false, env: { NO_COLOR: "1", VM_OUT: out } });
    return { exitCode: r.exitCode, stderr: r.stderr as string, stdout: r.stdout as string, scripts: JSON.parse(readFileSync(out, "utf8")) as unknown[] };
  }

  it("ships V8's cached data for the bundle, which this Node accepts under the binary's flags", async () => {
    expect(existsSync(codeCacheFile(bundle))).toBe(true);
    expect(existsSync(probeCacheFile(bundle))).toBe(true);
    const r = await run(BIN);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.scripts).toEqual([
      { file: null, cached: true, rejected: false },
      { file: bundle, cached: true, rejected: false },
    ]);
  });

  it("runs the ES module build, with the same output, when V8 would reject the cache or it is missing", async () => {
    const expected = await run(BIN);
    // Another budget than the binary's: other flags, so V8 rejects the probe's cache; the bundle is not compiled.
    const otherFlags = await run(BIN, ["--interrupt-budget=67584"]);
    expect(otherFlags.scripts).toEqual([{ file: null, cached: true, rejected: true }]);
    // A copy of dist/cli/ in the package's shape (package.json two levels up, node_modules for the externals).
    const copy = path.join(dir, "pkg");
    const cli = path.join(copy, "dist", "cli");
    cpSync(CLI_DIR, cli, { recursive: true });
    cpSync(path.join(ROOT, "package.json"), path.join(copy, "package.json"));
    symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
    const before = readdirSync(cli).sort();
    rmSync(codeCacheFile(path.join(cli, "cli.cjs")));
    const noCache = await run(path.join(cli, "main.js"));
    expect(noCache.scripts).toEqual([{ file: null, cached: true, rejected: false }]);
    writeFileSync(probeCacheFile(path.join(cli, "cli.cjs")), "another Node's cache");
    const garbage = await run(path.join(cli, "main.js"));
    expect(garbage.scripts).toEqual([{ file: null, cached: true, rejected: true }]);
    for (const r of [otherFlags, noCache, garbage]) expect([r.exitCode, r.stderr, r.stdout]).toEqual([0, "", expected.stdout]);
    // Nothing is written beside the bundle at run time.
    expect(readdirSync(cli).sort()).toEqual(before.filter((f) => f !== "cli.cjs.v8cache"));
  });
});
