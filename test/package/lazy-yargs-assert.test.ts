// scripts/lazy-yargs-assert.mjs gives yargs' shim its two node:assert checks without loading node:assert on
// every run: the same outcomes (nothing when they hold, node:assert's AssertionError when not), and a build
// failure when a new yargs no longer has the import it rewrites.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { AssertionError } from "node:assert";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { inlineAssert } from "../../scripts/lazy-yargs-assert.mjs";
import { ROOT } from "../support/cli.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "lazy-yargs-assert-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("yargs' assert checks, inlined", () => {
  it("rewrites the installed shim's import, and the checks behave as node:assert's", async () => {
    const file = path.join(ROOT, "node_modules/yargs/lib/platform-shims/esm.mjs");
    const out = inlineAssert(readFileSync(file, "utf8"), file);
    expect(out).not.toMatch(/from ['"](node:)?assert['"]/);
    // The rewritten import alone, as a module of its own.
    const head = inlineAssert("import { notStrictEqual, strictEqual } from 'assert'\n", "t.mjs");
    const mod = path.join(dir, "checks.mjs");
    writeFileSync(mod, `${head}\nexport { notStrictEqual, strictEqual };\n`);
    const { notStrictEqual, strictEqual } = (await import(pathToFileURL(mod).href)) as { notStrictEqual: (...a: unknown[]) => void; strictEqual: (...a: unknown[]) => void };
    expect(() => notStrictEqual(1, 2)).not.toThrow();
    expect(() => strictEqual("string", "string")).not.toThrow();
    expect(() => strictEqual(NaN, NaN)).not.toThrow();
    expect(() => notStrictEqual(true, true)).toThrow(AssertionError);
    expect(() => strictEqual(typeof 1, "string")).toThrow(AssertionError);
    const mine = new Error("yargs' own message");
    expect(() => notStrictEqual(undefined, undefined, mine)).toThrow(mine);
  });

  it("fails, naming the file, on another shape", () => {
    expect(() => inlineAssert("import { ok } from 'assert'\n", "f.mjs")).toThrow(/f\.mjs: expected one/);
    expect(() => inlineAssert("import { notStrictEqual, strictEqual } from 'assert'\nimport { ok } from 'node:assert'\n", "f.mjs")).toThrow(/f\.mjs/);
  });
});
