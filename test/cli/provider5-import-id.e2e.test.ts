// docs/report-format.md: provider 5 spells the import id `zones/<zone_id>/<ruleset_id>`. A root pinned to 5 with
// no legacy resource (Page Rules left for a zone) got `zone/…` in scan's and gate's JSON while plan wrote
// `zones/…`; a root with legacy resources is migrated on <= 3.35 first, so `zone/…` for it everywhere.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";

const ZONE = "0da42c8d2132a9ddaf714f9e7c920711";
const versions = (constraint: string) => `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${constraint}"\n    }\n  }\n}\n`;
const PAGE_RULE = `resource "cloudflare_page_rule" "admin" {\n  zone_id  = "${ZONE}"\n  target   = "shop.example/admin/*"\n  priority = 1\n  actions = {\n    disable_security = true\n  }\n}\n`;
const LEGACY = `resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "${ZONE}"\n  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"\n  sensitivity = "low"\n  action_mode = "simulate"\n}\n`;

function root(constraint: string, body: string): string {
  const dir = path.join(tempDir("cfwm-p5-import-"), "edge");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "main.tf"), versions(constraint) + body);
  return dir;
}

async function importIds(cmd: string, dir: string, env: Record<string, string> = {}): Promise<string[]> {
  const r = await runCli([cmd, dir, "--format", "json", "--fail-on", "never"], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { zones: { imports: { id: string }[] }[] }).zones.flatMap((z) => z.imports.map((i) => i.id));
}

describe("the import id's spelling follows the root's provider", () => {
  it("provider 5, no legacy resource: zones/… in scan, gate and plan alike (a root worker too)", async () => {
    const dir = root("~> 5.0", PAGE_RULE);
    const expected = [`zones/${ZONE}/<RULESET_ID>`];
    expect(await importIds("scan", dir)).toEqual(expected);
    expect(await importIds("scan", dir, { CFWM_ROOT_WORKERS: "1" })).toEqual(expected);
    expect(await importIds("gate", dir)).toEqual(expected);
    expect(await importIds("plan", dir)).toEqual(expected);
  });

  it("provider 4, or legacy resources (migrated on <= 3.35 first): zone/…", async () => {
    expect(await importIds("scan", root("~> 4.52", PAGE_RULE))).toEqual([`zone/${ZONE}/<RULESET_ID>`]);
    const legacy = root("~> 5.0", PAGE_RULE + LEGACY);
    expect(await importIds("scan", legacy)).toEqual([`zone/${ZONE}/<RULESET_ID>`]);
    expect(await importIds("plan", legacy)).toEqual([`zone/${ZONE}/<RULESET_ID>`]);
  });
});
