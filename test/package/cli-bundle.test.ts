// The command line ships as a bundle (scripts/bundle-cli.mjs). What a bundle can break silently: the parse
// pool finds its worker by a path relative to the bundled code (a missing worker would quietly keep every
// parse on one thread), and the version is read from ../../package.json relative to it.
import { parse } from "@cdktn/hcl2json";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
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
    // The bundled pool resolves `./worker.js` from its own chunk, which sits in the same directory.
    const poolChunk = (await import("node:fs")).readdirSync(CLI_DIR).filter((f) => f.endsWith(".js") && readFileSync(path.join(CLI_DIR, f), "utf8").includes('new URL("./worker.js", import.meta.url)'));
    expect(poolChunk.length).toBeGreaterThan(0);

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
