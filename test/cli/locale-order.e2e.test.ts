// A report's order does not depend on the locale of whoever runs the tool (src/core/text-order.ts). Under
// sv_SE "ä" sorts after "z", under en_US before it: with `localeCompare` two CI runners printed the same
// tree's findings (ordered by file within a zone) in different orders.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";

function tree(): string {
  const dir = path.join(tempDir("cfwm-locale-"), "root");
  mkdirSync(dir, { recursive: true });
  // One zone, its legacy WAF split over two files whose names sort differently by locale.
  writeFileSync(path.join(dir, "waf-zürich.tf"), `resource "cloudflare_waf_group" "a" {\n  zone_id    = "${ZONE}"\n  group_id   = "de677e5818985db1285d0e80225f06e5"\n  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"\n  mode       = "off"\n}\n`);
  writeFileSync(path.join(dir, "waf-zz.tf"), `resource "cloudflare_waf_rule" "b" {\n  zone_id = "${ZONE}"\n  rule_id = "100000"\n  mode    = "block"\n}\n`);
  writeFileSync(path.join(dir, "waf-äl.tf"), `resource "cloudflare_waf_rule" "c" {\n  zone_id = "${ZONE}"\n  rule_id = "100001"\n  mode    = "block"\n}\n`);
  return dir;
}

describe("report order and the user's locale", () => {
  it("scan --format json lists findings in the same order under sv_SE and en_US", async () => {
    const dir = tree();
    const runs = await Promise.all(
      ["sv_SE.UTF-8", "en_US.UTF-8", "C.UTF-8"].map((lc) => runCli(["scan", dir, "--format", "json", "--fail-on", "never"], { env: { LC_ALL: lc, LANG: lc } })),
    );
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const files = runs.map((r) => (JSON.parse(r.stdout) as { findings: { file: string | null }[] }).findings.map((f) => f.file));
    // The three files all have findings: the order among them is what differs by locale.
    expect(new Set(files[0]!.filter((f) => f !== null)).size).toBe(3);
    expect(files[0]).toEqual(files[1]);
    expect(files[0]).toEqual(files[2]);
    expect(runs[0]!.stdout).toBe(runs[1]!.stdout);
  });
});
