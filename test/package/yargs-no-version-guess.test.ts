// scripts/yargs-no-version-guess.mjs turns off yargs' version guess in the CLI's bundles, and fails the build
// when a new yargs no longer has the one call it rewrites.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { noVersionGuess } from "../../scripts/yargs-no-version-guess.mjs";
import { ROOT } from "../support/cli.js";

describe("yargs' version guess, turned off", () => {
  it("rewrites the installed factory's one guessing call", () => {
    const file = path.join(ROOT, "node_modules/yargs/build/lib/yargs-factory.js");
    const text = readFileSync(file, "utf8");
    const out = noVersionGuess(text, file);
    expect(out).not.toMatch(/^\s*yargs\.version\(\);$/m);
    expect(out).toMatch(/^\s*yargs\.version\(false\);$/m);
    expect(out.length).toBe(text.length + "false".length);
  });

  it("fails, naming the file, on another shape", () => {
    expect(() => noVersionGuess("yargs.help();\n", "f.js")).toThrow(/f\.js: expected one `yargs\.version\(\);`.*found 0/);
    expect(() => noVersionGuess("  yargs.version();\n  yargs.version();\n", "f.js")).toThrow(/found 2/);
  });
});
