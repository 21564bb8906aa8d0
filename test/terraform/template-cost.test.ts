// HashiCorp's template scanner is quadratic in `$`/`%` characters that start no interpolation within one
// run of literal text (issue 17: 64k of them did not finish a scan in 60 s). The fast reader reads such
// strings itself, and whatever still goes to hcl2json is held to a work budget (a positioned error above
// it). Each case below would take hours with the quadratic scanner; the assertions are on the work done
// (what reached hcl2json, the estimate), the timeouts only a generous backstop.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfigFileSelective } from "../../src/terraform/hcl/parse.js";
import { TEMPLATE_WORK_BUDGET, templateCostOverrun } from "../../src/terraform/hcl/template-cost.js";
import type { HclJudge } from "../../src/terraform/parse-pool/pool.js";
import { parseWithRuntime } from "../../src/terraform/parse-pool/runtime.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";

const MB = 1 << 20;
const LEGACY = 'resource "cloudflare_waf_group" "g" {\n  zone_id  = "z"\n  group_id = "g"\n  mode     = "off"\n}\n\n';

/** A judge that records what it is handed and forwards it to the real parser (through its budget). */
function recordingJudge(): HclJudge & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    bytes: 0,
    parse: async (file, text) => {
      texts.push(text);
      return (await parseWithRuntime(file, text)) as Record<string, unknown>;
    },
    close: async () => {},
  };
}

describe("long runs of $ and % cost linear work", () => {
  it.each([
    ["a quoted string of 1 MB of $", `locals {\n  s = "${"$".repeat(MB)}"\n}\n`, "$".repeat(MB)],
    ["a quoted string of 1 MB of %", `locals {\n  s = "${"%".repeat(MB)}"\n}\n`, "%".repeat(MB)],
    ["a quoted string of $a repeated", `locals {\n  s = "${"$a".repeat(MB / 2)}"\n}\n`, "$a".repeat(MB / 2)],
    ["a heredoc line of 1 MB of $", `locals {\n  s = <<EOT\n${"$".repeat(MB)}\nEOT\n}\n`, `${"$".repeat(MB)}\n`],
  ])("the fast reader reads %s without hcl2json", async (_name, text, value) => {
    const judge = recordingJudge();
    const out = await parseConfigFileSelective("main.tf", LEGACY + text, { select: () => true, judge });
    expect(judge.texts).toEqual([]);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect((out.parsed.body.locals as Record<string, unknown>[])[0]!.s).toBe(value);
    expect(Object.keys(out.parsed.body.resource as object)).toEqual(["cloudflare_waf_group"]);
  });

  it.each([
    ["a run followed by {", `locals {\n  s = "${"$".repeat(MB)}{"\n}\n`, 8, 8],
    ["a file the fast reader leaves to hcl2json whole (a top-level attribute)", `x = "${"%".repeat(MB)}"\n`, 7, 6],
  ])("%s: refused with a position before hcl2json scans it", async (_name, text, line, column) => {
    const judge = recordingJudge();
    const out = await parseConfigFileSelective("main.tf", LEGACY + text, { select: () => true, judge });
    // It reached the judge, and the budget stopped it there (no text over the budget was scanned).
    expect(judge.texts.length).toBeGreaterThan(0);
    expect(judge.texts.some((t) => templateCostOverrun(t) !== null)).toBe(true);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toMatchObject({ file: "main.tf", line, column });
    expect(out.error.message).toMatch(/^Template text too costly to read; this run of text holds 10485\d\d "\$" or "%" characters/);
  });

  it("the estimate leaves real configurations alone and is linear itself", () => {
    // A long Cloudflare expression with many anchors, and many format strings: far below the budget.
    const anchors = Array.from({ length: 200 }, (_, i) => `http.request.uri.path matches "^/p${i}/[a-z]+$"`).join(" or ");
    const expression = `resource "cloudflare_filter" "f" {\n  expression = "${anchors.replace(/"/g, '\\"')}"\n}\n`;
    expect(expression.length).toBeGreaterThan(10_000);
    expect(templateCostOverrun(expression)).toBeNull();
    const formats = Array.from({ length: 5_000 }, (_, i) => `  f${i} = format("%s-%d-%%", "a", ${i})\n`).join("");
    expect(templateCostOverrun(`locals {\n${formats}}\n`)).toBeNull();
    // Over the budget: the costliest run, and an estimate that counts it (1 MB of $ is ~10^12 steps).
    const over = templateCostOverrun(`a = 1\nb = "${"$".repeat(MB)}"\n`);
    expect(over).toMatchObject({ line: 2, column: 6, count: MB });
    expect(over!.work).toBeGreaterThan(TEMPLATE_WORK_BUDGET);
  });

  it("a scan of a tree with such a file still reads the rest", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cfwm-template-cost-"));
    writeFileSync(path.join(dir, "main.tf"), LEGACY);
    writeFileSync(path.join(dir, "big.tf"), `x = "${"$".repeat(MB)}"\n`);
    const ws = await loadWorkspace({ paths: ["."], statePaths: [], cwd: dir, readStdin: async () => Buffer.alloc(0) });
    expect(ws.resources.map((r) => r.address)).toEqual(["cloudflare_waf_group.g"]);
    expect(ws.errors).toEqual([expect.objectContaining({ file: "big.tf", line: 1, column: 6 })]);
  });
});

describe("the fuzz run's template-runs property", () => {
  it("holds on a fixed seed: every long run is read fast, within the budget, or refused with a position", { timeout: 120_000 }, async () => {
    const { checkProperty, properties } = await import("../support/generators.js");
    const stats = await checkProperty(properties.templateRuns, { numRuns: 60, seed: 17 });
    const total = (prefix: string) => [...stats].filter(([k]) => k.includes(prefix)).reduce((n, [, v]) => n + v, 0);
    expect(total("fast reader alone")).toBeGreaterThan(5);
    expect(total("refused over the budget")).toBeGreaterThan(2);
  });
});
