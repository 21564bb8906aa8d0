// The provider double ships as bundles (scripts/bundle-double.mjs): what terraform starts (double.env's
// CF_DOUBLE_MAIN) is start.cjs, which runs double.cjs through V8's code cache when V8 accepts it, else the
// ES module bundle main.js. A rejected or missing cache costs nothing but the time it was meant to save, so
// it is checked here: the cache this build ships is taken, and a start without it still hands terraform
// its handshake line.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildMirror } from "../../dist/sandbox/mirror.js";
import { doubleCodeCacheFile, doubleProbeCacheFile } from "../../src/sandbox/provider/double-script.js";

const DIR = fileURLToPath(new URL("../../dist/sandbox/provider/", import.meta.url));
const START = path.join(DIR, "start.cjs");
const BUNDLE = path.join(DIR, "double.cjs");
const COOKIE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

describe("the bundled provider double", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cfwm-double-bundle-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Records every vm.Script the process compiles, as it is made (the double is stopped by a signal, so no
  // exit handler would run): its file (null: the probe), whether cached data came with it, and whether V8
  // rejected that.
  const spy = path.join(dir, "vm-spy.cjs");
  writeFileSync(
    spy,
    `const vm = require("vm"); const Real = vm.Script;
vm.Script = class extends Real { constructor(src, opts) { super(src, opts); require("fs").appendFileSync(process.env.VM_OUT, JSON.stringify({ file: opts?.filename ?? null, cached: !!opts?.cachedData, rejected: this.cachedDataRejected ?? null }) + "\\n"); } };\n`,
  );

  /** Starts the double as terraform does (cookie, version, protocols) and returns its first line and scripts. */
  function handshake(nodeFlags: string[] = []): Promise<{ line: string; stderr: string; scripts: unknown[] }> {
    const out = path.join(dir, `vm-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(out, "");
    const child = spawn(process.execPath, [...nodeFlags, "--require", spy, START], {
      env: { PATH: process.env.PATH ?? "", VM_OUT: out, TF_PLUGIN_MAGIC_COOKIE: COOKIE, CF_DOUBLE_VERSION: "3.35.0", PLUGIN_PROTOCOL_VERSIONS: "5" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    return new Promise((resolve) => {
      let settled = false;
      const done = () => {
        if (settled) return;
        settled = true;
        child.kill("SIGKILL");
        const scripts = readFileSync(out, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as unknown);
        resolve({ line: stdout.split("\n")[0]!, stderr, scripts });
      };
      child.stdout.on("data", (d) => {
        stdout += d;
        if (stdout.includes("\n")) done();
      });
      child.on("close", done);
    });
  }

  it("ships V8's cached data for double.cjs, which this Node accepts, and starts through it", async () => {
    expect(existsSync(doubleCodeCacheFile(BUNDLE))).toBe(true);
    expect(existsSync(doubleProbeCacheFile(BUNDLE))).toBe(true);
    const r = await handshake();
    expect(r.line, r.stderr).toMatch(/^1\|5\|tcp\|127\.0\.0\.1:\d+\|grpc\|$/);
    expect(r.scripts).toEqual([
      { file: null, cached: true, rejected: false },
      { file: BUNDLE, cached: true, rejected: false },
    ]);
  });

  it("starts the ES module bundle when V8 would reject the cache", async () => {
    // Other V8 flags: V8 rejects the probe's cache, the classic script is not compiled, main.js runs.
    const r = await handshake(["--interrupt-budget=33792"]);
    expect(r.scripts).toEqual([{ file: null, cached: true, rejected: true }]);
    expect(r.line, r.stderr).toMatch(/^1\|5\|tcp\|127\.0\.0\.1:\d+\|grpc\|$/);
  });

  it("is what the mirror's double.env starts", () => {
    const mirror = buildMirror(path.join(dir, "mirror"), ["3.35.0"]);
    expect(readFileSync(path.join(mirror.dir, "double.env"), "utf8")).toContain(`CF_DOUBLE_MAIN='${START}'`);
  });
});
