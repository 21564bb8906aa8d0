import { describe, expect, it } from "vitest";
import { removeLocals, AttributeRemovalError } from "../../src/terraform/edit/remove-attributes.js";

describe("removeLocals", () => {
  it("removes one local with its comments, keeps the block and the other locals", async () => {
    const text = [
      "locals {",
      "  zone = \"abc\"",
      "",
      "  # the anomaly package ids",
      "  # (looked up by name)",
      "  ids = [",
      "    for p in data.cloudflare_waf_packages.anomaly.packages : p.id",
      "  ] # trailing",
      "",
      "  other = 1",
      "}",
      "",
    ].join("\n");
    const { text: out, removed } = await removeLocals(text, ["ids"], { file: "main.tf" });
    expect(out).toBe(["locals {", "  zone = \"abc\"", "", "  other = 1", "}", ""].join("\n"));
    expect(removed).toEqual([{ name: "ids", line: 6, endLine: 8 }]);
  });

  it("re-aligns the block when the file was in terraform fmt form", async () => {
    const text = 'locals {\n  package_ids = data.cloudflare_waf_packages.p.packages\n  zone        = "abc"\n}\n';
    const { text: out } = await removeLocals(text, ["package_ids"], { file: "main.tf" });
    expect(out).toBe('locals {\n  zone = "abc"\n}\n');
  });

  it("keeps other bytes of a file that was not in fmt form", async () => {
    const text = 'locals {\n    a   =   1\n    b = 2\n}\n\nresource "x" "y" {\n  v    = 1\n}\n';
    const { text: out } = await removeLocals(text, ["b"], { file: "main.tf" });
    expect(out).toBe('locals {\n    a   =   1\n}\n\nresource "x" "y" {\n  v    = 1\n}\n');
  });

  it("finds the local in whichever locals block holds it", async () => {
    const text = "locals {\n  a = 1\n}\n\nlocals {\n  b = 2\n  c = 3\n}\n";
    expect((await removeLocals(text, ["a", "c"], { file: "m.tf" })).text).toBe("locals {\n}\n\nlocals {\n  b = 2\n}\n");
  });

  it("keeps CRLF line endings and a BOM", async () => {
    const text = "\uFEFFlocals {\r\n  # ids\r\n  ids = data.cloudflare_waf_packages.p.packages\r\n  zone = 1\r\n}\r\n";
    const { text: out } = await removeLocals(text, ["ids"], { file: "crlf.tf" });
    expect(out).toBe("\uFEFFlocals {\r\n  zone = 1\r\n}\r\n");
  });

  it("refuses what it cannot prove safe", async () => {
    const reason = async (text: string, names: string[], file = "m.tf"): Promise<string> => {
      try {
        await removeLocals(text, names, { file });
        return "accepted";
      } catch (e) {
        expect(e).toBeInstanceOf(AttributeRemovalError);
        return (e as AttributeRemovalError).reason;
      }
    };
    expect(await reason("locals {\n  a = 1\n}\n", ["b"])).toBe("attribute-not-found");
    expect(await reason("locals { a = 1 }\n", ["a"])).toBe("shared-line");
    expect(await reason("locals {\n  a = (\n}\n", ["a"])).toBe("syntax-error");
    expect(await reason('{"locals": {"a": 1}}', ["a"], "m.tf.json")).toBe("json-unsupported");
    expect(await reason("locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n", ["a"])).toBe("attribute-ambiguous");
  });
});
