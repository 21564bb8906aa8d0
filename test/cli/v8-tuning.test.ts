// The command line raises V8's tier-up budget for its own process (src/cli/v8-tuning.ts, src/cli/v8-budget.ts): a short run
// stays in baseline code instead of paying TurboFan's background compiles (and deopts) for functions it
// is about to stop calling. Observable from outside through V8's --trace-opt: how many functions a 10-file
// scan marks for optimisation — with the budget the user names (here V8's default), and with ours.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { cloudflareTreeFiles } from "../../scripts/bench/generate.mjs";
import { INTERRUPT_BUDGET, userChoseBudget } from "../../src/cli/v8-budget.js";
import { BIN } from "../support/cli.js";

const tree = mkdtempSync(path.join(tmpdir(), "v8-tuning-"));
afterAll(() => rmSync(tree, { recursive: true, force: true }));
for (const [name, text] of cloudflareTreeFiles({ seed: 20240601, files: 10, bytes: 200_000 }) as Map<string, string>) {
  mkdirSync(path.dirname(path.join(tree, name)), { recursive: true });
  writeFileSync(path.join(tree, name), text);
}

async function marked(nodeFlags: string[]): Promise<{ marks: number; report: string }> {
  // The report goes to a file: V8's trace lines come from background threads and may split stdout's lines.
  const out = path.join(tree, `report-${nodeFlags.length}.json`);
  const r = await execa("node", [...nodeFlags, "--trace-opt", BIN, "scan", tree, "--format", "json", "--fail-on", "never", "--quiet", "--output", out], { reject: false, env: { NO_COLOR: "1" } });
  expect(r.exitCode, r.stderr as string).toBe(0);
  return { marks: ((r.stdout as string).match(/\[marking .*? for optimization/g) ?? []).length, report: readFileSync(out, "utf8") };
}

describe("V8 tuning of the command line", () => {
  it("marks far fewer functions for optimisation on a short scan than V8's default budget, with the same report", async () => {
    const ours = await marked([]);
    const v8default = await marked(["--interrupt-budget=67584"]);
    expect(v8default.marks).toBeGreaterThanOrEqual(10);
    expect(ours.marks * 3).toBeLessThanOrEqual(v8default.marks);
    expect(ours.report).toBe(v8default.report);
  });

  it("leaves a budget the user chose alone", () => {
    expect(INTERRUPT_BUDGET).toBe(16 * 67_584);
    expect(userChoseBudget([], undefined)).toBe(false);
    expect(userChoseBudget(["--interrupt-budget=1000"], undefined)).toBe(true);
    expect(userChoseBudget(["--interrupt_budget", "1000"], undefined)).toBe(true);
    expect(userChoseBudget([], "--max-old-space-size=4096 --interrupt-budget=5000")).toBe(true);
    expect(userChoseBudget(["--interrupt-budget-for-feedback-allocation=940"], "--no-warnings")).toBe(false);
  });
});
