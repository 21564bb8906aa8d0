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
import { INTERRUPT_BUDGET, userChoseBudget, userChoseFlag, WASM_TIERING_BUDGET } from "../../src/cli/v8-budget.js";
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

  it("keeps hcl2json's start-up out of TurboFan when a file needs it, with the same report", async () => {
    // A syntax error the fast reader leaves to hcl2json (the judge of every error message).
    const dir = path.join(tree, "needs-hcl2json");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "main.tf"), 'resource "cloudflare_waf_package" "owasp" {\n  zone_id = = "x"\n}\n');
    const run = async (nodeFlags: string[]) => {
      // The report goes to a file: V8's trace lines go to stdout, from background threads.
      const out = path.join(tree, `judged-${nodeFlags.length}.json`);
      const r = await execa("node", [...nodeFlags, "--trace-wasm-compilation-times", BIN, "scan", dir, "--format", "json", "--fail-on", "never", "--quiet", "--output", out], { reject: false, env: { NO_COLOR: "1" } });
      return { code: r.exitCode, turbofan: ((r.stdout as string).match(/using TurboFan/g) ?? []).length, report: readFileSync(out, "utf8") };
    };
    const ours = await run([]);
    const v8default = await run(["--wasm-tiering-budget=1800000"]);
    expect(v8default.turbofan).toBeGreaterThanOrEqual(5);
    expect(ours.turbofan).toBe(0);
    expect(ours.code).toBe(v8default.code);
    expect(JSON.parse(ours.report).errors[0]).toMatchObject({ line: 2, message: expect.stringMatching(/^Invalid expression/) });
    expect(ours.report).toBe(v8default.report);
  });

  it("leaves a budget the user chose alone", () => {
    expect(WASM_TIERING_BUDGET).toBe(100 * 1_800_000);
    expect(userChoseFlag("wasm-tiering-budget", ["--wasm_tiering_budget=5"], undefined)).toBe(true);
    expect(userChoseFlag("wasm-tiering-budget", [], "--wasm-tiering-budget=5")).toBe(true);
    expect(userChoseFlag("wasm-tiering-budget", ["--interrupt-budget=5"], undefined)).toBe(false);
    expect(INTERRUPT_BUDGET).toBe(16 * 67_584);
    expect(userChoseBudget([], undefined)).toBe(false);
    expect(userChoseBudget(["--interrupt-budget=1000"], undefined)).toBe(true);
    expect(userChoseBudget(["--interrupt_budget", "1000"], undefined)).toBe(true);
    expect(userChoseBudget([], "--max-old-space-size=4096 --interrupt-budget=5000")).toBe(true);
    expect(userChoseBudget(["--interrupt-budget-for-feedback-allocation=940"], "--no-warnings")).toBe(false);
  });
});
