// `gate` offline goes through scan's streamed path (estate/gate-stream.ts): each instance's provider checks
// from what is kept of it, the version findings from the zones read back after the split-zone join. Its
// report must be the one the in-memory gate (estate/gate-report.ts gateEstate over loadEstate) gives, byte
// for byte, with the report's lists on disk (scanEstateSpilled) and in memory (scanEstate, no spill directory).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wholeReport } from "../../src/core/report.js";
import type { Report } from "../../src/core/model.js";
import { gateEstate } from "../../src/estate/gate-report.js";
import { GateStream } from "../../src/estate/gate-stream.js";
import { loadEstate } from "../../src/estate/load.js";
import { scanEstate, type EstateScanOptions } from "../../src/estate/scan.js";
import { scanEstateSpilled } from "../../src/estate/spill/scan.js";
import { renderJson } from "../../src/render/json.js";
import { gateTextTail } from "../../src/render/gate-verdict.js";
import { tempDir } from "../support/workdir.js";

const noStdin = async () => Buffer.alloc(0);
const SPLIT = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7";
const OTHER = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

const versions = (constraint: string) => `terraform {\n  required_version = ">= 1.5"\n\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${constraint}"\n    }\n  }\n}\n`;
const lock = (version: string) =>
  `provider "registry.terraform.io/cloudflare/cloudflare" {\n  version     = "${version}"\n  constraints = ">= 3.0"\n  hashes = [\n    "h1:AAAA",\n  ]\n}\n`;
const wafPackage = (name: string, zone: string) =>
  `resource "cloudflare_waf_package" "${name}" {\n  zone_id     = "${zone}"\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "high"\n  action_mode = "challenge"\n}\n`;
const wafGroup = (name: string, zone: string, mode: string) =>
  `resource "cloudflare_waf_group" "${name}" {\n  zone_id  = "${zone}"\n  group_id = "de677e5818985db1285d0e80225f06e5"\n  mode     = "${mode}"\n}\n`;
const pageRuleWafOff = `resource "cloudflare_page_rule" "search" {\n  zone_id  = "${SPLIT}"\n  target   = "docs.example.net/search?q=*"\n  priority = 1\n  actions {\n    waf = "off"\n  }\n}\n`;

/**
 * live/a: pinned past 3.35 (~> 4.20) with legacy WAF of the split zone (PROVIDER_FEATURE_MISSING, carrying the
 * addresses PROVIDER_UPGRADE_BLOCKED would have had). live/b: >= 3.0 locked at 3.30.0 (PROVIDER_UPGRADE_BLOCKED),
 * legacy WAF of another zone through a module two roots call, and a Page Rule turning the WAF off in the split
 * zone. live/c: the shared module only, no cloudflare entry, and a lock file that cannot be read (an input error).
 */
function tree(): string {
  const base = tempDir("cfwm-gate-stream-");
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    writeFileSync(path.join(base, rel), text);
  };
  write("live/a/versions.tf", versions("~> 4.20"));
  write("live/a/main.tf", wafPackage("owasp", SPLIT) + wafGroup("xss", SPLIT, "off"));
  write("live/b/versions.tf", versions(">= 3.0"));
  write("live/b/.terraform.lock.hcl", lock("3.30.0"));
  write("live/b/main.tf", `module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "${OTHER}"\n}\n\n` + pageRuleWafOff);
  write("live/c/main.tf", `module "waf" {\n  source  = "../../modules/waf"\n  zone_id = "${OTHER}"\n}\n`);
  write("live/c/.terraform.lock.hcl", `provider "registry.terraform.io/cloudflare/cloudflare" {\n  version = \n`);
  write("modules/waf/main.tf", `variable "zone_id" {\n  type = string\n}\n\n` + wafPackage("owasp", "${var.zone_id}").replace(`"\${var.zone_id}"`, "var.zone_id"));
  return base;
}

let base: string;
let spill: string;
beforeEach(() => {
  base = tree();
  spill = mkdtempSync(path.join(os.tmpdir(), "cfwm-gate-spill-"));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(spill, { recursive: true, force: true });
});

const scanOptions = (gate: GateStream): EstateScanOptions => ({
  paths: ["."],
  statePaths: [],
  cwd: base,
  readStdin: noStdin,
  analyze: {},
  rulesetRoots: () => ({}),
  version: "t",
  root: () => ".",
  gate: gate.add,
});

describe("gate over a streamed scan", () => {
  for (const target of [undefined, "4.52.8"]) {
    it(`gives the in-memory gate's report byte for byte, lists on disk or in memory (--target-provider ${target ?? "absent"})`, async () => {
      const estate = await loadEstate({ paths: ["."], statePaths: [], cwd: base, readStdin: noStdin });
      const old = await gateEstate(estate, { version: "t", root: ".", ...(target ? { target } : {}), rulesetRoots: {} });
      const codes = new Set(old.report.findings.map((f) => f.code));
      // The fixture has what the gate adds and what the streamed path must rebuild.
      for (const code of ["PROVIDER_FEATURE_MISSING", "PROVIDER_UPGRADE_BLOCKED", "ZONE_SPLIT_ACROSS_ROOTS"]) expect(codes, code).toContain(code);
      expect(old.report.errors.some((e) => e.file.includes("live/c/.terraform.lock.hcl"))).toBe(true);
      expect(old.summaries.length).toBe(3);

      const onDisk = new GateStream(target);
      const spilled = await scanEstateSpilled(scanOptions(onDisk), spill);
      try {
        const gated = await onDisk.finish(spilled.report, spilled.severities);
        expect(renderJson(gated.report)).toBe(renderJson(old.report));
        // Walked a second time (another --format): the same lists.
        const whole: Report = wholeReport(gated.report);
        expect(JSON.stringify(whole)).toBe(JSON.stringify(old.report));
        expect(gated.summaries).toEqual(old.summaries);
        expect(gateTextTail(whole, "warning", gated.summaries)).toBe(gateTextTail(old.report, "warning", old.summaries));
        expect([...gated.severities].sort()).toEqual([...new Set(old.report.findings.map((f) => f.severity))].sort());
      } finally {
        spilled.close();
      }

      const inMemory = new GateStream(target);
      const scanned = await scanEstate(scanOptions(inMemory));
      const gated = await inMemory.finish(scanned.report, new Set(scanned.report.findings.map((f) => f.severity)));
      expect(renderJson(gated.report)).toBe(renderJson(old.report));
      expect(gated.summaries).toEqual(old.summaries);
    });
  }

  // `--shard`: a shard's report reads its own roots' lock files and constraints. The in-memory gate read every
  // root's (the tree holds them all), so another shard's unreadable lock file failed this shard too (exit 2).
  it("with --shard, reads the provider facts of the shard's roots only, in memory as streamed", async () => {
    const rootFilter = (p: string) => p !== "live/c";
    const estate = await loadEstate({ paths: ["."], statePaths: [], cwd: base, readStdin: noStdin, rootFilter });
    const old = await gateEstate(estate, { version: "t", root: ".", rulesetRoots: {} });
    expect(old.report.roots?.map((r) => r.path)).toEqual(["live/a", "live/b"]);
    expect(old.report.errors).toEqual([]);
    const gate = new GateStream(undefined);
    const spilled = await scanEstateSpilled({ ...scanOptions(gate), rootFilter }, spill);
    try {
      const gated = await gate.finish(spilled.report, spilled.severities);
      expect(renderJson(gated.report)).toBe(renderJson(old.report));
      expect(gated.summaries).toEqual(old.summaries);
    } finally {
      spilled.close();
    }
  });

  it("refuses to finish when it did not see every instance of the report (a scan that built some elsewhere)", async () => {
    const gate = new GateStream(undefined);
    const scanned = await scanEstate({ ...scanOptions(gate), gate: undefined });
    await expect(gate.finish(scanned.report, new Set())).rejects.toThrow(/saw 0 of 3 instances/);
  });
});
