import { parse } from "@cdktn/hcl2json";
import { describe, expect, it } from "vitest";
import { UnsafeEditError, removeBlocks, type BlockTarget } from "../../src/terraform/edit/remove-blocks.js";
import { locateTopLevelBlocks } from "../../src/terraform/edit/tree.js";

const pkg: BlockTarget = { type: "resource", labels: ["cloudflare_waf_package", "owasp"] };
const group: BlockTarget = { type: "resource", labels: ["cloudflare_waf_group", "xss"] };
const rule: BlockTarget = { type: "resource", labels: ["cloudflare_waf_rule", "r"] };

const MAIN = `terraform {
  required_providers {
    cloudflare = { source = "cloudflare/cloudflare", version = "~> 3.30" } # pinned
  }
}

resource "cloudflare_zone" "shop" {
  zone = "shop.example.com" // café 🎉
}

# The OWASP package.
# Sensitivity high, action simulate.
resource "cloudflare_waf_package" "owasp" {
  zone_id     = cloudflare_zone.shop.id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "simulate"
}

/* A group
   turned off */
resource "cloudflare_waf_group" "xss" {
  zone_id    = cloudflare_zone.shop.id
  group_id   = "de677e5818985db1285d0e80225f06e5"
  mode       = "off"
} # end of xss

# Not attached: a blank line separates it.

// rule comment
resource "cloudflare_waf_rule" "r" {
  zone_id = cloudflare_zone.shop.id
  rule_id = "100000"
  mode    = "simulate"
}

output "zone" {
  value = <<-EOT
    resource "cloudflare_waf_package" "owasp" {
    }
  EOT
}
`;

/** Remove the given spans from the text; used to state exactly which characters may change. */
function cut(text: string, ...spans: [string, string][]): string {
  let out = text;
  for (const [from, to] of spans) {
    const s = out.indexOf(from);
    const e = out.indexOf(to, s) + to.length;
    expect(s).toBeGreaterThanOrEqual(0);
    out = out.slice(0, s) + out.slice(e);
  }
  return out;
}

async function refusal(p: Promise<unknown>): Promise<UnsafeEditError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(UnsafeEditError);
    return e as UnsafeEditError;
  }
  throw new Error("expected the edit to be refused");
}

describe("locateTopLevelBlocks", () => {
  it("finds top-level blocks with labels, UTF-16 offsets and lines; heredoc text is not a block", async () => {
    const { blocks, hasError } = await locateTopLevelBlocks(MAIN);
    expect(hasError).toBe(false);
    expect(blocks.map((b) => [b.type, ...b.labels])).toEqual([
      ["terraform"],
      ["resource", "cloudflare_zone", "shop"],
      ["resource", "cloudflare_waf_package", "owasp"],
      ["resource", "cloudflare_waf_group", "xss"],
      ["resource", "cloudflare_waf_rule", "r"],
      ["output", "zone"],
    ]);
    const owasp = blocks[2]!;
    // The emoji before this block is two UTF-16 code units: string offsets must still be exact.
    expect(MAIN.slice(owasp.start, owasp.end)).toMatch(/^resource "cloudflare_waf_package" "owasp" \{[\s\S]*\n\}$/);
    expect(owasp.startLine).toBe(13);
    expect(owasp.endLine).toBe(18);
  });

  it("reports syntax errors and decodes escaped labels", async () => {
    expect((await locateTopLevelBlocks('resource "a" "b" {\n')).hasError).toBe(true);
    const { blocks } = await locateTopLevelBlocks('resource "a\\"b" c {}\n');
    expect(blocks[0]!.labels).toEqual(['a"b', "c"]);
  });
});

describe("removeBlocks (HCL)", () => {
  it("removes blocks with their leading comments and one following blank line, nothing else", async () => {
    const { text, removed } = await removeBlocks(MAIN, [pkg, group, rule], { file: "main.tf" });
    const expected = cut(
      MAIN,
      ["# The OWASP package.", 'action_mode = "simulate"\n}\n\n'],
      ["/* A group", "} # end of xss\n\n"],
      ["// rule comment", 'mode    = "simulate"\n}\n\n'],
    );
    expect(text).toBe(expected);
    expect(text).toContain("# Not attached: a blank line separates it.\n\noutput");
    expect(text).toContain('resource "cloudflare_waf_package" "owasp" {\n    }'); // heredoc untouched
    expect(removed.map((r) => [r.labels[1], r.startLine, r.endLine, r.blockStartLine])).toEqual([
      ["owasp", 11, 19, 13],
      ["xss", 20, 27, 22],
      ["r", 30, 36, 31],
    ]);
    for (const r of removed) expect(MAIN.slice(r.start, r.end)).toContain(`"${r.labels[1]}" {`);
    const parsed: any = await parse("main.tf", text);
    expect(Object.keys(parsed.resource)).toEqual(["cloudflare_zone"]);
  });

  it("keeps every untouched character identical (prefix and suffix of a single removal)", async () => {
    const { text, removed } = await removeBlocks(MAIN, [group], { file: "main.tf" });
    const r = removed[0]!;
    expect(text).toBe(MAIN.slice(0, r.start) + MAIN.slice(r.end));
    expect(MAIN.slice(0, r.start).endsWith('action_mode = "simulate"\n}\n\n')).toBe(true);
    expect(MAIN.slice(r.end).startsWith("# Not attached")).toBe(true);
  });

  it("handles CRLF files", async () => {
    const crlf = MAIN.replace(/\n/g, "\r\n");
    const { text } = await removeBlocks(crlf, [pkg, rule], { file: "main.tf" });
    const expected = cut(
      MAIN,
      ["# The OWASP package.", 'action_mode = "simulate"\n}\n\n'],
      ["// rule comment", 'mode    = "simulate"\n}\n\n'],
    ).replace(/\n/g, "\r\n");
    expect(text).toBe(expected);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("handles a file without a trailing newline", async () => {
    const src = 'locals {\n  a = 1\n}\n\n# last\nresource "cloudflare_waf_rule" "r" {\n  mode = "off"\n}';
    expect((await removeBlocks(src, [rule])).text).toBe("locals {\n  a = 1\n}\n");
    const mid = 'resource "cloudflare_waf_rule" "r" {\n}\n\nlocals {\n  a = 1\n}';
    expect((await removeBlocks(mid, [rule])).text).toBe("locals {\n  a = 1\n}");
  });

  it("removes the only block of a file, and keeps a byte-order mark", async () => {
    expect((await removeBlocks('resource "cloudflare_waf_rule" "r" {}\n', [rule])).text).toBe("");
    const bom = '\uFEFF# c\nresource "cloudflare_waf_rule" "r" {}\n\nlocals {}\n';
    expect((await removeBlocks(bom, [rule])).text).toBe("\uFEFFlocals {}\n");
    const bytes = Buffer.from(bom, "utf8");
    expect((await removeBlocks(bytes, [rule])).text).toBe("\uFEFFlocals {}\n");
  });

  it("does not mistake block text inside a heredoc for a block", async () => {
    const src = 'locals {\n  doc = <<EOT\nresource "cloudflare_waf_rule" "r" {\n}\nEOT\n}\n';
    const e = await refusal(removeBlocks(src, [rule], { file: "doc.tf" }));
    expect(e.reason).toBe("target-not-found");
    expect(e.message).toBe('refusing to edit doc.tf: no resource "cloudflare_waf_rule" "r" block found');
    const withReal = src + '\nresource "cloudflare_waf_rule" "r" {\n}\n';
    expect((await removeBlocks(withReal, [rule])).text).toBe(src);
  });

  it("keeps a comment that starts after other content, even when it ends just above the block", async () => {
    const src = 'locals {\n} /* about locals\n   still about locals */\nresource "cloudflare_waf_rule" "r" {}\n';
    expect((await removeBlocks(src, [rule])).text).toBe("locals {\n} /* about locals\n   still about locals */\n");
  });

  it("treats a repeated target as one", async () => {
    const { removed } = await removeBlocks(MAIN, [rule, rule]);
    expect(removed).toHaveLength(1);
  });

  describe("refusals", () => {
    it("refuses a file with a syntax error", async () => {
      const e = await refusal(removeBlocks('resource "cloudflare_waf_rule" "r" {\n  x = [1,\n}\n', [rule], { file: "bad.tf" }));
      expect(e.reason).toBe("syntax-error");
      expect(e.file).toBe("bad.tf");
      expect(e.message).toMatch(/^refusing to edit bad\.tf: /);
    });

    it("refuses a file that tree-sitter accepts but Terraform's parser rejects", async () => {
      const src = 'resource "cloudflare_waf_rule" "r" {\n  mode = "on"\n  mode = "off"\n}\n';
      const e = await refusal(removeBlocks(src, [rule], { file: "dup.tf" }));
      expect(e.reason).toBe("syntax-error");
      expect(e.message).toContain("dup.tf:3");
    });

    it("refuses a target declared twice", async () => {
      const src = 'resource "cloudflare_waf_rule" "r" {}\n\nresource "cloudflare_waf_rule" "r" {}\n';
      const e = await refusal(removeBlocks(src, [rule], { file: "twice.tf" }));
      expect(e.reason).toBe("target-ambiguous");
      expect(e.message).toContain("lines 1, 3");
    });

    it("refuses a target not found", async () => {
      expect((await refusal(removeBlocks(MAIN, [{ type: "resource", labels: ["x", "y"] }]))).reason).toBe(
        "target-not-found",
      );
    });

    it("refuses a block that shares a line with other content", async () => {
      const src = 'locals {\n}\n/* starts here\nends here */ resource "cloudflare_waf_rule" "r" {}\n';
      const e = await refusal(removeBlocks(src, [rule], { file: "shared.tf" }));
      expect(e.reason).toBe("shared-line");
      expect(e.message).toContain("shares a line with a comment");
      const src2 = 'resource "cloudflare_waf_rule" "r" {} /* starts here\nends here */\nlocals {}\n';
      expect((await refusal(removeBlocks(src2, [rule]))).reason).toBe("shared-line");
    });

    it("refuses bytes that are not UTF-8 and strings with lone surrogates", async () => {
      const bytes = Buffer.concat([Buffer.from('# \xff\n', "latin1"), Buffer.from('resource "cloudflare_waf_rule" "r" {}\n')]);
      const e = await refusal(removeBlocks(bytes, [rule], { file: "latin1.tf" }));
      expect(e.reason).toBe("not-utf8");
      expect(e.message).toContain("latin1.tf");
      expect((await refusal(removeBlocks('# \uD800\nresource "cloudflare_waf_rule" "r" {}\n', [rule]))).reason).toBe(
        "not-utf8",
      );
    });
  });
});

describe("removeBlocks (.tf.json)", () => {
  const JSON_SRC = `{
  "resource": {
    "cloudflare_zone": {
      "shop": { "zone": "shop.example.com" }
    },
    "cloudflare_waf_rule": {
      "r": {
        "zone_id": "\${cloudflare_zone.shop.id}",
        "mode": "simulate"
      },
      "s": { "mode": "off" }
    },
    "cloudflare_waf_package": {
      "owasp": { "sensitivity": "high" }
    }
  },
  "output": { "z": { "value": 1 } }
}
`;

  it("cuts the member and its comma, keeping the rest byte for byte", async () => {
    const { text, removed } = await removeBlocks(JSON_SRC, [rule], { file: "waf.tf.json" });
    expect(text).toBe(JSON_SRC.replace(/"r": \{\n[\s\S]*?\n {6}\},\n {6}/, ""));
    expect(JSON.parse(text).resource.cloudflare_waf_rule).toEqual({ s: { mode: "off" } });
    expect(removed[0]!.startLine).toBe(7);
  });

  it("drops objects left empty, up to the resource key", async () => {
    const { text } = await removeBlocks(JSON_SRC, [pkg, rule, { type: "resource", labels: ["cloudflare_waf_rule", "s"] }], {
      file: "waf.tf.json",
    });
    expect(JSON.parse(text)).toEqual({
      resource: { cloudflare_zone: { shop: { zone: "shop.example.com" } } },
      output: { z: { value: 1 } },
    });
    expect(text.startsWith('{\n  "resource": {\n    "cloudflare_zone": {\n      "shop": { "zone": "shop.example.com" }\n    }\n  },\n')).toBe(
      true,
    );
    const only = '{"resource": {"cloudflare_waf_rule": {"r": {}}}}';
    expect((await removeBlocks(only, [rule], { file: "x.tf.json" })).text).toBe("{}");
  });

  it("refuses shapes it does not edit, asking for a hand edit", async () => {
    const arr = '{"resource": [{"cloudflare_waf_rule": {"r": {}}}]}';
    const e = await refusal(removeBlocks(arr, [rule], { file: "arr.tf.json" }));
    expect(e.reason).toBe("json-unsupported");
    expect(e.message).toMatch(/^refusing to edit arr\.tf\.json: .*edit this file by hand$/);
    const dup = '{"resource": {"cloudflare_waf_rule": {"r": {}}}, "resource": {}}';
    expect((await refusal(removeBlocks(dup, [rule], { file: "dup.tf.json" }))).reason).toBe("json-unsupported");
    const body = '{"resource": {"cloudflare_waf_rule": {"r": [{}, {}]}}}';
    expect((await refusal(removeBlocks(body, [rule], { file: "b.tf.json" }))).reason).toBe("json-unsupported");
    expect((await refusal(removeBlocks("{", [rule], { file: "broken.tf.json" }))).reason).toBe("syntax-error");
    expect((await refusal(removeBlocks("{}", [rule], { file: "empty.tf.json" }))).reason).toBe("target-not-found");
  });
});
