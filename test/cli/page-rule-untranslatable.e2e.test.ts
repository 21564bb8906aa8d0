// Issue 18 §2 end to end: a Page Rule target the translator cannot express (non-ASCII host, whitespace,
// invalid port) is a PAGE_RULE_TARGET_UNTRANSLATABLE error finding on that rule, with file and line, and the
// rest of the report is intact; `plan` never stops with an internal error over it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const SHOP = "0da42c8d2132a9ddaf714f9e7c920711";
const ORIGINAL = "*shop.example.com/legacy-api/*";

/** multi-zone with the `legacy_api` Page Rule's target replaced in config and state alike. */
function treeWithTarget(target: string): string {
  const dir = copyFixture("multi-zone");
  for (const file of ["firewall.tf", "terraform.tfstate"]) {
    const p = path.join(dir, file);
    const text = readFileSync(p, "utf8");
    expect(text).toContain(ORIGINAL);
    // The targets used here need no escaping in HCL or JSON strings.
    writeFileSync(p, text.split(ORIGINAL).join(target));
  }
  return dir;
}

interface Finding {
  code: string;
  severity: string;
  message: string;
  zoneId: string;
  file: string;
  line: number;
  details?: Record<string, string>;
}

describe("plan with an untranslatable Page Rule target", () => {
  const baseline = runCli(["plan", ".", "--state", "terraform.tfstate", "--format", "json"], { cwd: copyFixture("multi-zone") });

  it.each([
    ["https://bücher.example.com/admin/*", /not ASCII/, "https://xn--bcher-kva.example.com/admin/*"],
    ["shop.example.com/legacy api/*", /a space/, "%20"],
    ["shop.example.com:99999/legacy-api/*", /invalid port/, "no port"],
  ])("%s: a finding on the rule, exit 0, no internal error, everything else unchanged", async (target, problem, fix) => {
    const dir = treeWithTarget(target);
    const out = tempDir();
    const r = await runCli(["plan", ".", "--state", "terraform.tfstate", "--format", "json", "--out-dir", out], { cwd: dir });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    const found: Finding[] = report.findings.filter((f: Finding) => f.code === "PAGE_RULE_TARGET_UNTRANSLATABLE");
    expect(found).toHaveLength(1);
    const f = found[0]!;
    expect(f).toMatchObject({ severity: "error", zoneId: SHOP, file: "firewall.tf", line: 46 });
    expect(f.message).toContain("cloudflare_page_rule.legacy_api");
    expect(f.message).toMatch(problem);
    expect(f.message).toContain(fix);
    expect(f.details).toMatchObject({ target });

    // No skip rule for it (none guessed), and the rest of the report as without it.
    const shop = report.zones.find((z: { zoneId: string }) => z.zoneId === SHOP);
    expect(shop.ruleset.rules.map((x: { description: string }) => x.description).join("\n")).not.toContain("legacy_api");
    const before = JSON.parse((await baseline).stdout);
    const beforeShop = before.zones.find((z: { zoneId: string }) => z.zoneId === SHOP);
    expect(shop.ruleset.rules).toEqual(beforeShop.ruleset.rules.filter((x: { description: string }) => !x.description.includes("legacy_api")));
    const codes = (rep: { findings: Finding[] }) => rep.findings.map((x) => x.code).filter((c) => c !== "PAGE_RULE_TARGET_UNTRANSLATABLE");
    expect(codes(report)).toEqual(codes(before));
    expect(report.errors).toEqual([]);
    expect(readFileSync(path.join(out, "PLAN.md"), "utf8")).toContain("PAGE_RULE_TARGET_UNTRANSLATABLE");
  });

  it("gate fails on it at the default --fail-on error", async () => {
    const dir = treeWithTarget("https://bücher.example.com/admin/*");
    const r = await runCli(["gate", ".", "--state", "terraform.tfstate", "--format", "json"], { cwd: dir });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("PAGE_RULE_TARGET_UNTRANSLATABLE");
  });
});
