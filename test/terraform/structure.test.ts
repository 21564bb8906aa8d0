import { describe, expect, it } from "vitest";
import { scanStructure } from "../../src/terraform/hcl/structure.js";

describe("structural pass", () => {
  it("finds top-level blocks with labels and lines", () => {
    const text = [
      "# leading comment",
      'resource "cloudflare_waf_rule" "r" {',
      '  rule_id = "100015"',
      "}",
      "",
      "module waf {",
      '  source = "./m"',
      "}",
      "locals {}",
    ].join("\n");
    const r = scanStructure(text);
    expect(r.error).toBeNull();
    expect(r.blocks.map((b) => [b.type, b.labels, b.line, b.endLine])).toEqual([
      ["resource", ["cloudflare_waf_rule", "r"], 2, 4],
      ["module", ["waf"], 6, 8],
      ["locals", [], 9, 9],
    ]);
    expect(text.slice(r.blocks[0]!.start, r.blocks[0]!.end)).toMatch(/^resource[\s\S]*\}$/);
  });

  it("is not fooled by braces in strings, templates, heredocs and comments", () => {
    const text = [
      'resource "a" "b" {',
      '  x = "}"',
      '  y = "${ {a = "}"}["a"] }"',
      '  z = "$${literal} %%{also}"',
      "  h = <<-EOT",
      "    } resource \"fake\" \"block\" {",
      "    EOT",
      "  # }",
      "  // }",
      "  /* } */",
      "}",
      'resource "c" "d" {}',
    ].join("\n");
    const r = scanStructure(text);
    expect(r.error).toBeNull();
    expect(r.blocks.map((b) => b.labels)).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
  });

  it("does not report blocks inside /* */ comments", () => {
    const r = scanStructure('/*\nresource "cloudflare_waf_rule" "x" {}\n*/\nresource "a" "b" {}\n');
    expect(r.blocks.map((b) => b.labels)).toEqual([["a", "b"]]);
  });

  it("reports where an unclosed block starts", () => {
    const r = scanStructure('resource "a" "b" {\n  x = 1\n');
    expect(r.error).toMatchObject({ line: 1, column: 18 });
  });

  it("reports an unterminated heredoc and string", () => {
    expect(scanStructure('resource "a" "b" {\n x = <<EOT\nabc\n}\n').error?.message).toMatch(/heredoc/);
    expect(scanStructure('resource "a" "b" {\n x = "abc\n}\n').error?.message).toMatch(/Unterminated/);
  });

  it("handles CRLF and a byte-order mark", () => {
    const r = scanStructure('\uFEFFresource "a" "b" {\r\n  x = 1\r\n}\r\n');
    expect(r.error).toBeNull();
    expect(r.blocks[0]).toMatchObject({ type: "resource", labels: ["a", "b"], line: 1, endLine: 3 });
  });
});
