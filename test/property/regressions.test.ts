// Regression tests for bugs the fuzz run found (scripts/fuzz.mjs): each one the minimal input it shrank to.
import { describe, expect, it } from "vitest";
import { parseConfigFile } from "../../src/terraform/hcl/parse.js";
import { parseStateText } from "../../src/terraform/state/read.js";

describe("deeply nested JSON (fuzz: nest mutation, 5,000 levels)", () => {
  const deep = (n: number) => "[".repeat(n) + "1" + "]".repeat(n);

  it("a broken state: an error with line and column, not a RangeError", () => {
    const outcome = parseStateText(`{"version": 4, "resources": ${"[".repeat(5000)}`, "terraform.tfstate");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ file: "terraform.tfstate", line: 1 });
    expect(outcome.error.column).toBeGreaterThan(1);
  });

  it("a .tf.json file: refused with a position, not a RangeError", async () => {
    const outcome = await parseConfigFile("deep.tf.json", `{\n  "locals": { "x": ${deep(20_000)} }\n}\n`);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ file: "deep.tf.json", line: 2 });
    expect(outcome.error.message).toMatch(/nesting too deep/);
  });

  it("nesting a little less deep still reads", async () => {
    const outcome = await parseConfigFile("ok.tf.json", `{ "locals": { "x": ${deep(500)} } }`);
    expect(outcome.ok).toBe(true);
  });
});

describe("state with a deeply nested version (fuzz: nest mutation at the version value)", () => {
  it("is refused as an unsupported version, not a RangeError from quoting the value", () => {
    const outcome = parseStateText(`{"version": ${"[".repeat(5000)}${"]".repeat(5000)}, "resources": []}`, "terraform.tfstate");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.message).toMatch(/^state version .* is not supported/);
    expect(outcome.error.message.length).toBeLessThan(300);
  });
});

describe("terraform show -json with a null resource entry (fuzz: tree mutation replace → null)", () => {
  it("is refused with a message, not a TypeError", () => {
    for (const text of [
      '{"format_version": "1.0", "values": {"root_module": {"resources": [null]}}}',
      '{"format_version": "1.0", "values": {"root_module": {"child_modules": [{"resources": [null]}]}}}',
    ]) {
      const outcome = parseStateText(text, "show.json");
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error).toMatchObject({ file: "show.json", message: "resource without an address in terraform show -json output" });
    }
  });
});

describe("state that is not JSON (fuzz: text mutations)", () => {
  it("gets a one-line message that does not quote the state's text", () => {
    const text = `\ndeep {\nn {\n${'{"version": 4, "resources": [{"token": "s3cr3t-value"}]}'}`;
    const outcome = parseStateText(text, "terraform.tfstate");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ file: "terraform.tfstate", line: 2, column: 1 });
    expect(outcome.error.message).not.toContain("\n");
    expect(outcome.error.message).not.toContain("deep {");
    expect(outcome.error.message).toMatch(/^state is not valid JSON: /);
  });
});

describe("the position of a too-deep JSON nesting (fuzz: selective and full reading disagreed by a column)", () => {
  it("does not depend on how much stack the caller used", async () => {
    const text = `{\n  "a": ${"[".repeat(6000)}1\n}\n`;
    const shallow = await parseConfigFile("d.tf.json", text);
    const deeper = await (async function nest(n: number): Promise<typeof shallow> {
      return n === 0 ? parseConfigFile("d.tf.json", text) : nest(n - 1);
    })(300);
    expect(shallow.ok).toBe(false);
    if (shallow.ok || deeper.ok) return;
    expect(shallow.error).toMatchObject({ line: 2 });
    expect(shallow.error.column).toBeLessThanOrEqual(8);
    expect(deeper.error).toEqual(shallow.error);
  });
});
