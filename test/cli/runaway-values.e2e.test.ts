// Issue #17 from the built CLI: a module example whose locals double a list or a string at each line (40
// lines, a trillion elements written out) is scanned in bounded work; the module's for_each over it is
// VALUE_UNRESOLVED ("too large to evaluate offline"), not an endless scan or an internal error.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const MODULE = `variable "zones" {
  type = list(string)
}

resource "cloudflare_waf_package" "owasp" {
  for_each    = toset(var.zones)
  zone_id     = each.value
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "simulate"
}
`;

function tree(locals: string[], zones: string): string {
  const dir = tempDir("cfwm-runaway-");
  mkdirSync(path.join(dir, "modules/waf"), { recursive: true });
  mkdirSync(path.join(dir, "examples/basic"), { recursive: true });
  writeFileSync(path.join(dir, "modules/waf/main.tf"), MODULE);
  writeFileSync(path.join(dir, "examples/basic/main.tf"), `locals {\n${locals.map((l) => `  ${l}\n`).join("")}}\n\nmodule "waf" {\n  source = "../../modules/waf"\n  zones  = ${zones}\n}\n`);
  return dir;
}

async function unresolvedReasons(dir: string): Promise<{ exitCode: number; stderr: string; messages: string[] }> {
  const r = await runCli(["scan", dir, "--format", "json"]);
  const report = JSON.parse(r.stdout) as { findings: { code: string; message: string }[] };
  return { exitCode: r.exitCode, stderr: r.stderr, messages: report.findings.filter((f) => f.code === "VALUE_UNRESOLVED").map((f) => f.message) };
}

describe("values that would grow without bound", () => {
  it("a list doubled by 40 locals: the for_each over it is VALUE_UNRESOLVED, too large", async () => {
    const lines = ['l0 = ["a", "b"]', ...Array.from({ length: 40 }, (_, i) => `l${i + 1} = [local.l${i}, local.l${i}]`)];
    const { exitCode, messages } = await unresolvedReasons(tree(lines, "flatten(local.l40)"));
    expect(exitCode).toBe(0);
    expect(messages.some((m) => /too large to evaluate offline/.test(m))).toBe(true);
  });

  it("a string doubled by 40 locals: VALUE_UNRESOLVED, not an internal error", async () => {
    const lines = ['s0 = "ab"', ...Array.from({ length: 40 }, (_, i) => `s${i + 1} = "\${local.s${i}}\${local.s${i}}"`)];
    const { exitCode, stderr, messages } = await unresolvedReasons(tree(lines, "[local.s40]"));
    expect(stderr).not.toContain("internal error");
    expect(exitCode).toBe(0);
    expect(messages.some((m) => /too long to evaluate offline/.test(m))).toBe(true);
  });
});
