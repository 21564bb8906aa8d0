// Zones whose ids are not known offline (looked up by data sources, per module instance and per count
// index): step 0 of PLAN.md and the other per-zone lines name each zone by the expression that gives its id,
// instead of four identical `<ZONE_ID> (unknown)` lines.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { copyFixture, tempDir } from "../support/workdir.js";

const ZONES = [
  'data.cloudflare_zones.by_name["blog.example.com"].zones[0].id',
  'data.cloudflare_zones.by_name["shop.example.com"].zones[0].id',
  "data.cloudflare_zones.listed[0].zones[0].id",
  "data.cloudflare_zones.listed[1].zones[0].id",
];

function section(md: string, from: string, to: string): string {
  return md.slice(md.indexOf(from), md.indexOf(to));
}

describe("plan: zones of unknown id are named on their lines", () => {
  it("step 0 commands carry which zone their <ZONE_ID> is, the notes name it; steps 1-3 and migrate.sh too", async () => {
    const out = path.join(tempDir("cfwm-zone-labels-"), "plan");
    const r = await runCli(["plan", ".", "--out-dir", out, "--format", "json"], { cwd: copyFixture("zones-from-data-source") });
    expect(r.exitCode).toBe(0);
    const md = readFileSync(path.join(out, "PLAN.md"), "utf8");
    const step0 = section(md, "### 0.", "### 1.");
    for (const z of ZONES) {
      expect(step0).toContain(`cf-waf-migrate api check --zone <ZONE_ID>  # <ZONE_ID>: ${z}\n`);
      expect(step0).toContain(`cf-waf-migrate api migrate --zone <ZONE_ID> --mode pending --yes  # <ZONE_ID>: ${z}\n`);
      expect(step0).toContain(`- <ZONE_ID> of ${z} (plan unknown): the pending path`);
    }
    expect(step0).not.toContain("<ZONE_ID> (unknown)");
    const noteLines = step0.split("\n").filter((l) => l.startsWith("- <ZONE_ID>"));
    expect(new Set(noteLines).size).toBe(4);
    expect(section(md, "### 2.", "### 3.")).toContain(`- <ZONE_ID> of ${ZONES[2]}: cloudflare_ruleset.waf_managed_listed\n`);
    expect(section(md, "### 3.", "### 4.")).toContain(`- <ZONE_ID> of ${ZONES[3]}: replace <RULESET_ID>`);
    const script = readFileSync(path.join(out, "migrate.sh"), "utf8");
    expect(script).toContain(`echo '  <ZONE_ID> of ${ZONES[0]}: cf-waf-migrate api status --zone <ZONE_ID>'`);
  });
});
