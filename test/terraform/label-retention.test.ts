// What the fast reader keeps of a file must not keep the file: V8 makes a substring of 13 characters or more
// a "sliced string" pointing into its parent, so one label kept as a slice would hold a whole file's text in
// memory for as long as the module tree lives. Measured in a child Node with --expose-gc on the built reader.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";

const FAST = pathToFileURL(path.join(ROOT, "dist/terraform/hcl/fast.js")).href;

/** MB of heap still held after parsing 40 files of ~1 MB, keeping only each file's block labels. */
function retainedMb(header: string): number {
  const script = `
    const { fastParse } = await import(${JSON.stringify(FAST)});
    const kept = [];
    const before = (globalThis.gc(), process.memoryUsage().heapUsed);
    for (let i = 0; i < 40; i++) {
      const filler = "# " + String(i).repeat(50) + "\\n";
      const text = ${JSON.stringify(header)}.replace("N", String(i)) + " {\\n  a = 1\\n}\\n" + filler.repeat(20000);
      const r = fastParse(text, { select: () => true });
      if (!r.ok) throw new Error("bailed");
      kept.push(...r.blocks.flatMap((b) => b.labels));
    }
    globalThis.gc();
    console.log(JSON.stringify({ mb: (process.memoryUsage().heapUsed - before) / 1048576, labels: kept.length }));
  `;
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
  const { mb, labels } = JSON.parse(out) as { mb: number; labels: number };
  expect(labels).toBeGreaterThanOrEqual(40);
  return mb;
}

describe("labels outlive their file without holding it", () => {
  it.each([
    ['resource "cloudflare_waf_rule" "a_long_rule_name_N"', "quoted"],
    ["module a_long_module_name_N", "unquoted"],
  ])("%s (%s)", (header) => {
    // 40 files of ~1 MB each: holding them would be ~40 MB; the labels themselves are a few KB.
    expect(retainedMb(header)).toBeLessThan(8);
  });
});
