// The edit guards read a file with the fast reader when it reads the whole file, and start tree-sitter and
// hcl2json only for the others (src/terraform/edit/fast-items.ts). The fast answer must be the runtimes'
// answer: on every fixture file, and on hand-written shapes with comments between and around blocks.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fastTopLevelItems } from "../../src/terraform/edit/fast-items.js";
import { readWholeFileFast } from "../../src/terraform/hcl/whole-file.js";
import { locateTopLevelItems } from "../../src/terraform/edit/tree.js";
import { removeBlocks } from "../../src/terraform/edit/remove-blocks.js";
import { loadHcl2Json } from "../../src/terraform/parse-pool/pool.js";
import { TESTDATA } from "../support/cli.js";

function tfFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const abs = path.join(dir, name);
    if (statSync(abs).isDirectory()) out.push(...tfFiles(abs));
    else if (name.endsWith(".tf")) out.push(abs);
  }
  return out;
}

const SHAPES: Record<string, string> = {
  comments: [
    "# leading comment",
    "// another",
    "/* a block",
    "   comment */",
    'resource "cloudflare_waf_group" "g" {',
    '  zone_id = "z" # trailing',
    "  mode    = \"off\"",
    "} # after the brace",
    "",
    "/* between */ ",
    'locals {',
    '  ids = ["a", "b"]',
    "}",
    "# last line without newline",
  ].join("\n"),
  labels: ['terraform {', '  required_version = ">= 1.5"', "}", "", "module x {", '  source = "./m"', "}", "", 'data "cloudflare_zones" "all" {}', ""].join("\n"),
  oneLine: ['output "o" { value = 1 }', 'variable "v" {}', ""].join("\n"),
  empty: "",
  onlyComments: "# nothing here\n// at all\n",
};

async function hcl2json(text: string): Promise<unknown> {
  return (await loadHcl2Json()).parse("x.tf", text);
}

describe("the edit guards' fast path reads what tree-sitter and hcl2json read", () => {
  const files = [...tfFiles(TESTDATA).map((f) => [path.relative(TESTDATA, f), readFileSync(f, "utf8")] as const), ...Object.entries(SHAPES)];

  it("reads most fixture files itself", () => {
    const read = files.filter(([, text]) => readWholeFileFast(text) !== null).length;
    expect(read).toBeGreaterThan(files.length / 2);
  });

  it.each(files)("%s", async (_name, text) => {
    const fast = readWholeFileFast(text);
    if (fast === null) return; // the runtimes read this one; nothing to compare
    expect(fast.body).toStrictEqual(await hcl2json(text));
    const tree = await locateTopLevelItems(text);
    expect(fastTopLevelItems(text, fast.blocks)).toEqual(tree);
  });

  it("leaves a file with a syntax error, a CR or a BOM to the runtimes", () => {
    expect(readWholeFileFast('resource "a" "b" {\n  x = \n}\n')).toBeNull();
    expect(readWholeFileFast('locals {\r\n  a = 1\r\n}\r\n')).toBeNull();
    expect(readWholeFileFast('\uFEFFlocals {\n  a = 1\n}\n')).toBeNull();
    expect(readWholeFileFast("a = 1\n")).toBeNull();
  });

  it("removes the same span as the runtimes do, comments above the block included", async () => {
    const text = SHAPES.comments!;
    const r = await removeBlocks(text, [{ type: "resource", labels: ["cloudflare_waf_group", "g"] }], { file: "main.tf" });
    expect(r.text).toBe(["/* between */ ", "locals {", '  ids = ["a", "b"]', "}", "# last line without newline"].join("\n"));
    expect(r.removed[0]).toMatchObject({ startLine: 1, blockStartLine: 5, blockEndLine: 8 });
  });
});
