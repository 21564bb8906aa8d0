// The command line ships as a bundle (scripts/bundle-cli.mjs). What a bundle can break silently: the parse
// pool finds its worker by a path relative to the bundled code (a missing worker would quietly keep every
// parse on one thread), the version is read from ../../package.json relative to it, and V8's code cache for
// the bundle must be one that Node accepts (a rejected one costs nothing but the time it was meant to save).
import { parse } from "@cdktn/hcl2json";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { codeCacheFile, compileCliScript } from "../../src/cli/cli-script.js";
import { INTERRUPT_BUDGET } from "../../src/cli/v8-budget.js";
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

  it("ships V8's cached data for the bundle, which this Node accepts under the binary's flags", () => {
    expect(existsSync(codeCacheFile(bundle))).toBe(true);
    // The binary sets the tier-up budget before it compiles (src/cli/bin.ts): the cache was made under it.
    // This test's process gets the same flag for the check, then V8's default back.
    setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    try {
      const accepted = compileCliScript(bundle, readFileSync(codeCacheFile(bundle)));
      expect(accepted.cachedDataRejected).toBe(false);
      const other = compileCliScript(bundle, Buffer.from("not V8's cached data"));
      expect(other.cachedDataRejected).toBe(true);
    } finally {
      setFlagsFromString("--interrupt-budget=67584");
    }
  });

  it("runs the same without its cache, or with one V8 rejects, and writes none", async () => {
    const copy = mkdtempSync(path.join(tmpdir(), "cfwm-cache-"));
    try {
      // The package's shape around dist/cli/: package.json two levels up, node_modules for the externals.
      const cli = path.join(copy, "dist", "cli");
      mkdirSync(cli, { recursive: true });
      for (const f of ["main.js", "cli.cjs", "worker.js"]) cpSync(path.join(CLI_DIR, f), path.join(cli, f));
      cpSync(path.join(ROOT, "package.json"), path.join(copy, "package.json"));
      symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
      const args = ["scan", path.join(ROOT, "testdata", "multi-zone"), "--format", "json", "--fail-on", "never", "--quiet"];
      const expected = await execa("node", [BIN, ...args], { reject: false, env: { NO_COLOR: "1" } });
      expect(expected.exitCode, expected.stderr).toBe(0);
      const without = await execa("node", [path.join(cli, "main.js"), ...args], { reject: false, env: { NO_COLOR: "1" } });
      expect([without.exitCode, without.stderr, without.stdout]).toEqual([0, "", expected.stdout]);
      expect(readdirSync(cli).sort()).toEqual(["cli.cjs", "main.js", "worker.js"]);
      writeFileSync(codeCacheFile(path.join(cli, "cli.cjs")), "garbage, or another Node's cache");
      const rejected = await execa("node", [path.join(cli, "main.js"), ...args], { reject: false, env: { NO_COLOR: "1" } });
      expect([rejected.exitCode, rejected.stderr, rejected.stdout]).toEqual([0, "", expected.stdout]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
