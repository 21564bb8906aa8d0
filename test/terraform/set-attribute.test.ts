import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import {
  AttributeEditError,
  encodeHclString,
  setAttribute,
  setAttributes,
  type AttributeEditReason,
  type AttributeTarget,
} from "../../src/terraform/edit/set-attribute.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const V4 = readFileSync(path.join(ROOT, "testdata/certificates/main.tf"), "utf8");
const V5 = readFileSync(path.join(ROOT, "testdata/certificates-v5/main.tf"), "utf8");

const res = (type: string, name: string) => ({ type: "resource", labels: [type, name] });
const CA = ["certificate_authority"];
const SSL_CA = ["ssl", "certificate_authority"];

/** The text with exactly one occurrence of `from` (at or after `after`) replaced: the only allowed change. */
function replacedOnce(text: string, after: string, from: string, to: string): string {
  const anchor = text.indexOf(after);
  expect(anchor).toBeGreaterThanOrEqual(0);
  const i = text.indexOf(from, anchor);
  expect(i).toBeGreaterThanOrEqual(0);
  return text.slice(0, i) + to + text.slice(i + from.length);
}

async function refusal(input: string | Uint8Array, target: AttributeTarget, file = "main.tf"): Promise<AttributeEditError> {
  try {
    await setAttribute(input, target, { file });
  } catch (e) {
    expect(e).toBeInstanceOf(AttributeEditError);
    return e as AttributeEditError;
  }
  throw new Error("expected the edit to be refused");
}

async function expectRefused(input: string | Uint8Array, target: AttributeTarget, reason: AttributeEditReason, message?: RegExp) {
  const e = await refusal(input, target);
  expect(e.reason).toBe(reason);
  expect(e.message).toMatch(/^refusing to edit main\.tf: /);
  if (message) expect(e.message).toMatch(message);
}

describe("setAttribute: provider 4 syntax (fixture)", () => {
  it("changes a top-level attribute of a certificate pack and nothing else", async () => {
    const r = await setAttribute(V4, { block: res("cloudflare_certificate_pack", "shop_wildcard"), line: 37, path: CA, from: "lets_encrypt", to: "google" });
    expect(r.text).toBe(replacedOnce(V4, 'resource "cloudflare_certificate_pack" "shop_wildcard"', '"lets_encrypt"', '"google"'));
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]).toMatchObject({ oldValue: "lets_encrypt", oldText: '"lets_encrypt"', newText: '"google"', line: 43, changed: true });
  });

  it("changes the attribute inside the nested ssl block of a custom hostname", async () => {
    const r = await setAttribute(V4, { block: res("cloudflare_custom_hostname", "tenant_acme"), path: SSL_CA, from: "lets_encrypt", to: "google" });
    expect(r.text).toBe(replacedOnce(V4, 'resource "cloudflare_custom_hostname" "tenant_acme"', '"lets_encrypt"', '"google"'));
    expect(r.changes[0]!.line).toBe(70);
  });

  it("deletes the attribute's whole line when `to` is null", async () => {
    const r = await setAttribute(V4, { block: res("cloudflare_custom_hostname", "tenant_acme"), path: SSL_CA, to: null });
    expect(r.text).toBe(V4.replace('    certificate_authority = "lets_encrypt"\n    bundle_method         = "ubiquitous"\n', '    bundle_method         = "ubiquitous"\n'));
    expect(r.text.split("\n")).toHaveLength(V4.split("\n").length - 1);
  });

  it("several attributes of one file at once; the same value again changes nothing", async () => {
    const r = await setAttributes(V4, [
      { block: res("cloudflare_certificate_pack", "shop_wildcard"), path: CA, to: "google" },
      { block: res("cloudflare_total_tls", "shop"), path: CA, to: "google" },
      { block: res("cloudflare_custom_hostname", "tenant_acme"), path: SSL_CA, to: "google" },
    ]);
    expect(r.text.match(/"lets_encrypt"/g)).toBeNull();
    expect(r.text.length).toBe(V4.length - 3 * ("lets_encrypt".length - "google".length));
    const same = await setAttribute(V4, { block: res("cloudflare_certificate_pack", "shop_api"), path: CA, from: "google", to: "google" });
    expect(same.text).toBe(V4);
    expect(same.changes[0]!.changed).toBe(false);
  });

  it("all or nothing: one refused target leaves the file alone", async () => {
    await expect(
      setAttributes(V4, [
        { block: res("cloudflare_total_tls", "shop"), path: CA, to: "google" },
        { block: res("cloudflare_total_tls", "nope"), path: CA, to: "google" },
      ]),
    ).rejects.toMatchObject({ reason: "block-not-found" });
  });
});

describe("setAttribute: provider 5 syntax (fixture)", () => {
  it("changes the attribute inside the ssl = { … } object", async () => {
    const r = await setAttribute(V5, { block: res("cloudflare_custom_hostname", "tenant_acme"), line: 63, path: SSL_CA, from: "lets_encrypt", to: "google" });
    expect(r.text).toBe(replacedOnce(V5, 'resource "cloudflare_custom_hostname" "tenant_acme"', '"lets_encrypt"', '"google"'));
  });

  it("deletes an object element's line, a trailing comma included", async () => {
    const del = await setAttribute(V5, { block: res("cloudflare_custom_hostname", "tenant_acme"), path: SSL_CA, to: null });
    expect(del.text).toBe(V5.replace('    certificate_authority = "lets_encrypt"\n', ""));
    const withComma = 'resource "cloudflare_custom_hostname" "h" {\n  ssl = {\n    method = "txt",\n    certificate_authority = "lets_encrypt", # pinned\n    type = "dv"\n  }\n}\n';
    const r = await setAttribute(withComma, { block: res("cloudflare_custom_hostname", "h"), path: SSL_CA, to: null });
    expect(r.text).toBe(withComma.replace('    certificate_authority = "lets_encrypt", # pinned\n', ""));
  });

  it("finds a quoted object key and decodes escapes in the literal", async () => {
    const text = 'resource "cloudflare_custom_hostname" "h" {\n  ssl = {\n    "certificate_authority" = "lets\\u005fencrypt"\n  }\n}\n';
    const r = await setAttribute(text, { block: res("cloudflare_custom_hostname", "h"), path: SSL_CA, from: "lets_encrypt", to: "google" });
    expect(r.text).toBe(text.replace('"lets\\u005fencrypt"', '"google"'));
  });

  it("replaces in a one-line object, but refuses to delete from it (the line holds other content)", async () => {
    const text = 'resource "cloudflare_custom_hostname" "h" {\n  ssl = { method = "txt", certificate_authority = "lets_encrypt" }\n}\n';
    const r = await setAttribute(text, { block: res("cloudflare_custom_hostname", "h"), path: SSL_CA, to: "google" });
    expect(r.text).toBe(text.replace('"lets_encrypt"', '"google"'));
    await expectRefused(text, { block: res("cloudflare_custom_hostname", "h"), path: SSL_CA, to: null }, "shared-line");
  });
});

describe("setAttribute: bytes around the edit stay identical", () => {
  it("keeps CRLF line endings, a BOM and non-ASCII text before the edit (UTF-16 offsets)", async () => {
    const lf = '# ☃ café 🎉 — certificates\nresource "cloudflare_total_tls" "t" {\n  zone_id               = "z" # 🎉\n  certificate_authority = "lets_encrypt"\n}\n';
    const crlf = "\uFEFF" + lf.replace(/\n/g, "\r\n");
    const bytes = new TextEncoder().encode(crlf);
    const r = await setAttribute(bytes, { block: res("cloudflare_total_tls", "t"), path: CA, to: "google" });
    expect(r.text).toBe(crlf.replace('"lets_encrypt"', '"google"'));
    const del = await setAttribute(crlf, { block: res("cloudflare_total_tls", "t"), path: CA, to: null });
    expect(del.text).toBe(crlf.replace('  certificate_authority = "lets_encrypt"\r\n', ""));
  });

  it("writes values as HCL literals (template sequences escaped)", () => {
    expect(encodeHclString("google")).toBe('"google"');
    expect(encodeHclString('a"b\\c${x}%{y}\n')).toBe('"a\\"b\\\\c$${x}%%{y}\\n"');
  });
});

describe("setAttribute: refusals", () => {
  const block = (body: string, type = "cloudflare_total_tls", name = "t") => `resource "${type}" "${name}" {\n${body}}\n`;
  const tt = { block: res("cloudflare_total_tls", "t"), path: CA, to: "google" } as const;
  const ch = { block: res("cloudflare_custom_hostname", "t"), path: SSL_CA, to: "google" } as const;

  it("a value that is not a plain string literal", async () => {
    await expectRefused(block("  certificate_authority = var.ca\n"), tt, "not-a-literal", /var\.ca, not a plain string literal/);
    await expectRefused(block('  certificate_authority = "${var.ca}"\n'), tt, "not-a-literal");
    await expectRefused(block('  certificate_authority = "lets_${local.x}"\n'), tt, "not-a-literal");
    await expectRefused(block("  certificate_authority = <<EOT\nlets_encrypt\nEOT\n"), tt, "not-a-literal");
    await expectRefused(block('  certificate_authority = local.on ? "google" : "lets_encrypt"\n'), tt, "not-a-literal");
  });

  it("ssl given by an expression or a dynamic block", async () => {
    await expectRefused(block("  ssl = var.ssl\n", "cloudflare_custom_hostname"), ch, "not-a-literal", /set by an expression/);
    await expectRefused(
      block('  dynamic "ssl" {\n    for_each = [1]\n    content {\n      certificate_authority = "lets_encrypt"\n    }\n  }\n', "cloudflare_custom_hostname"),
      ch,
      "not-a-literal",
      /dynamic "ssl" block/,
    );
  });

  it("a block that is missing, declared twice, or not where it was read", async () => {
    await expectRefused(block('  certificate_authority = "lets_encrypt"\n'), { ...tt, block: res("cloudflare_total_tls", "other") }, "block-not-found");
    const twice = block('  certificate_authority = "lets_encrypt"\n') + block('  certificate_authority = "google"\n');
    await expectRefused(twice, tt, "block-ambiguous", /declared 2 times \(lines 1, 4\)/);
    await expectRefused(block('  certificate_authority = "lets_encrypt"\n'), { ...tt, line: 7 }, "block-moved");
  });

  it("an attribute or a nested block that is missing or ambiguous", async () => {
    await expectRefused(block('  enabled = true\n'), tt, "attribute-not-found");
    await expectRefused(block('  hostname = "x"\n', "cloudflare_custom_hostname"), ch, "attribute-not-found", /no ssl block or attribute/);
    const twoSsl = block('  ssl {\n    certificate_authority = "lets_encrypt"\n  }\n  ssl {\n    certificate_authority = "google"\n  }\n', "cloudflare_custom_hostname");
    await expectRefused(twoSsl, ch, "attribute-ambiguous", /2 ssl blocks/);
    await expectRefused(block('  ssl {\n    type = "dv"\n  }\n', "cloudflare_custom_hostname"), ch, "attribute-not-found");
  });

  it("a value other than the expected one", async () => {
    await expectRefused(block('  certificate_authority = "google"\n'), { ...tt, from: "lets_encrypt" }, "unexpected-value", /is "google", not "lets_encrypt"/);
  });

  it("a file with a syntax error, invalid UTF-8, or in JSON syntax", async () => {
    await expectRefused(block('  certificate_authority = "lets_encrypt"\n  broken = \n'), tt, "syntax-error");
    await expectRefused(new Uint8Array([0x23, 0xff, 0x0a]), tt, "not-utf8");
    const e = await refusal('{"resource": {}}', tt, "main.tf.json");
    expect(e.reason).toBe("json-unsupported");
  });

  it("leaves the input untouched when refusing (nothing is written by the editor itself)", async () => {
    const text = block("  certificate_authority = var.ca\n");
    const copy = String(text);
    await refusal(text, tt);
    expect(text).toBe(copy);
  });
});
