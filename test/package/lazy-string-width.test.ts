// The CLI's bundle defers string-width's load-time set-up (Intl.Segmenter, \p{RGI_Emoji}) to its first call
// (scripts/lazy-string-width.mjs). What that must keep: the same widths for every kind of text help can
// hold, a loud build failure when a new string-width has another shape, and a bundle that sets none of it up
// at load.
import { build } from "esbuild";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { assertNoEagerTextSetup, deferStringWidth, lazyStringWidth } from "../../scripts/lazy-string-width.mjs";
import { BIN, ROOT } from "../support/cli.js";

const tmp = mkdtempSync(path.join(tmpdir(), "lazy-sw-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SAMPLES = ["", "plain ASCII", "\u001b[31mred\u001b[39m", "日本語のテキスト", "café", "e\u0301", "👩‍👩‍👧", "1\u20e3", "🇫🇷", "한국어", "\u200bzero", "\u{1F44D}\u{1F3FD}", "\t\n", "ｈａｌｆ"];

/** Each installed ESM copy of string-width, bundled through the plugin, and the copy as published. */
async function bothWays(pkgDir: string): Promise<[(s: string) => number, (s: string) => number]> {
  const entry = path.join(pkgDir, "index.js");
  const outfile = path.join(tmp, `${path.relative(ROOT, pkgDir).replace(/[\\/]/g, "_")}.mjs`);
  await build({ entryPoints: [entry], outfile, bundle: true, format: "esm", platform: "node", logLevel: "silent", plugins: [lazyStringWidth] });
  expect(readFileSync(outfile, "utf8")).not.toMatch(/^var \w+ = new Intl\.Segmenter/m);
  const lazy = (await import(pathToFileURL(outfile).href)).default;
  const original = (await import(pathToFileURL(entry).href)).default;
  return [lazy, original];
}

describe("string-width, deferred to its first call", () => {
  const copies = ["node_modules/string-width", "node_modules/cliui/node_modules/string-width", "node_modules/wrap-ansi/node_modules/string-width"]
    .map((p) => path.join(ROOT, p))
    .filter((p) => { try { return readFileSync(path.join(p, "index.js"), "utf8").includes("import "); } catch { return false; } });

  it("measures every sample as the published module does, in each installed copy", async () => {
    expect(copies.length).toBeGreaterThan(0);
    for (const dir of copies) {
      const [lazy, original] = await bothWays(dir);
      for (const s of SAMPLES) {
        expect(lazy(s), `${dir}: ${JSON.stringify(s)}`).toBe(original(s));
        expect(lazy(s, { ambiguousIsNarrow: false }), `${dir}: ${JSON.stringify(s)} (ambiguous wide)`).toBe(original(s, { ambiguousIsNarrow: false }));
      }
    }
  });

  it("fails the build, naming the file, when the module has another shape", () => {
    const imports = "import stripAnsi from 'strip-ansi';\n";
    expect(() => deferStringWidth("const x = 1;\nexport default function f() {}\n", "a.js")).toThrow(/a\.js: no import statements/);
    expect(() => deferStringWidth(`${imports}const s = new Intl.Segmenter();\nexport function f() {}\n`, "b.js")).toThrow(/b\.js: expected one export/);
    expect(() => deferStringWidth(`${imports}export default function f() {}\nexport const g = 1;\n`, "c.js")).toThrow(/c\.js: expected one export/);
    expect(() => deferStringWidth(`${imports}const a = 1;\nimport x from 'y';\nexport default function f() {}\n`, "d.js")).toThrow(/d\.js: an import statement after/);
    expect(() => deferStringWidth(`${imports}const u = import.meta.url;\nexport default function f() {}\n`, "e.js")).toThrow(/e\.js: a construct/);
  });

  it("rejects a bundle that builds a Segmenter or the RGI_Emoji regex at load", () => {
    expect(() => assertNoEagerTextSetup([["x.js", "var segmenter = new Intl.Segmenter();\n"]])).toThrow(/x\.js: .*new Intl\.Segmenter/);
    expect(() => assertNoEagerTextSetup([["y.js", 'var r = new RegExp("^\\\\p{RGI_Emoji}$", "v");\n']])).toThrow(/y\.js/);
    expect(() => assertNoEagerTextSetup([["z.js", "var r = /^\\p{RGI_Emoji}$/v;\n"]])).toThrow(/z\.js/);
    expect(() => assertNoEagerTextSetup([["ok.js", "function f() {\n  const segmenter = new Intl.Segmenter();\n}\n"]])).not.toThrow();
  });

  it("leaves no such set-up at the top level of the built CLI", () => {
    const dir = path.dirname(BIN);
    const files = readdirSync(dir).filter((f) => /\.[cm]?js$/.test(f)).map((f) => [f, readFileSync(path.join(dir, f), "utf8")] as [string, string]);
    expect(files.some(([, t]) => t.includes("new Intl.Segmenter()"))).toBe(true);
    expect(() => assertNoEagerTextSetup(files)).not.toThrow();
  });
});
