// One rule for where a zone entry stands (src/estate/zone-status.ts): the text/Markdown estate summary and the
// HTML overview are fed the same zones and must give the same answer, case by case.
import { describe, expect, it } from "vitest";
import type { Finding, Report, ZoneReport } from "../../src/core/model.js";
import { estateSummary, summarySentence } from "../../src/estate/summary.js";
import { zoneStatus } from "../../src/estate/zone-status.js";
import { renderHtml } from "../../src/render/html/index.js";
import { zoneViews } from "../../src/render/html/status.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { estateZone } from "../support/estate.js";

const id = (n: number) => n.toString(16).padStart(32, "0");
const zone = estateZone;
const finding = (code: string, severity: Finding["severity"], zoneId: string | null, root: string, address: string | null = null): Finding =>
  ({ code, severity, message: "", zoneId, address, file: null, line: null, root, workspace: "default" }) as Finding;
const unresolved = { address: "cloudflare_waf_package.owasp", attribute: "sensitivity", expression: "var.s", reason: "a variable without a value", file: null, line: null };
const noLegacy = { packages: [], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], zoneWafSettings: [] };

/** Each case: its zone entry, the summary's status, the overview's group and the words its badge shows. */
const CASES: { name: string; zone: ZoneReport; findings?: Finding[]; summary: string; group: string; badge: string }[] = [
  { name: "blocked by an error", zone: zone(id(1), "a"), findings: [finding("URI_WAF_OVERRIDE", "error", id(1), "a")], summary: "blocked", group: "blocked", badge: "Blocked" },
  { name: "blocked by its instance's error", zone: zone(id(2), "b"), summary: "blocked", group: "blocked", badge: "Blocked" },
  { name: "not compatible", zone: zone(id(3), "a", { compatible: false }), summary: "blocked", group: "blocked", badge: "Blocked" },
  { name: "an unresolved value", zone: zone(id(4), "a", { unresolved: [unresolved] as ZoneReport["unresolved"] }), summary: "needs-values", group: "unknown", badge: "Unknown" },
  { name: "a zone id not known offline", zone: zone("var.zone_id", "a", { imports: [] }), summary: "needs-values", group: "unknown", badge: "Unknown" },
  { name: "a <RULESET_ID> import", zone: zone(id(6), "a", { imports: [{ to: "cloudflare_ruleset.x", id: `zone/${id(6)}/<RULESET_ID>` }] }), summary: "needs-ruleset-id", group: "ready", badge: "Ready once its ruleset id is known" },
  { name: "ruleset in another root", zone: zone(id(7), "a", { imports: [], rulesetIn: { root: "c", workspace: "default" } }), summary: "ruleset-elsewhere", group: "ready", badge: "Ready, ruleset in another root" },
  {
    name: "a managed ruleset and no legacy resource",
    zone: zone(id(8), "a", { legacy: noLegacy }),
    findings: [finding("MANAGED_RULESET_EXISTS", "info", id(8), "a", "cloudflare_ruleset.waf")],
    summary: "ready",
    group: "ready",
    badge: "Ready",
  },
  { name: "ready", zone: zone(id(9), "a"), findings: [finding("LEGACY_WAF_RESOURCE", "warning", id(9), "a")], summary: "ready", group: "ready", badge: "Ready" },
  // Root c's provider may not move to 4.x until its legacy WAF is migrated: a reason to migrate, not a blocker.
  { name: "ready, its root's provider upgrade waiting for it", zone: zone(id(11), "c"), findings: [finding("LEGACY_WAF_RESOURCE", "warning", id(11), "c")], summary: "ready", group: "ready", badge: "Ready" },
];

function estate(): Report {
  return {
    schemaVersion: 1,
    tool: { name: "t", version: "0" },
    root: ".",
    roots: [
      { path: "a", workspace: "default", states: [] },
      { path: "b", workspace: "default", states: [] },
      { path: "c", workspace: "default", states: [] },
    ],
    resources: [],
    zones: CASES.map((c) => c.zone),
    // A provider that cannot import the ruleset blocks every zone of root b; a warning of root a blocks nothing.
    findings: [...CASES.flatMap((c) => c.findings ?? []), finding("PROVIDER_FEATURE_MISSING", "error", null, "b"), finding("REMOTE_MODULE_NOT_FOLLOWED", "warning", null, "a"), finding("PROVIDER_UPGRADE_BLOCKED", "error", null, "c")],
    errors: [],
  } as unknown as Report;
}

describe("one status per zone entry, the same in the summary and the HTML overview", () => {
  const report = estate();
  const lines = estateSummary(report);
  const views = zoneViews(report);
  const lineOf = (z: ZoneReport) => lines.find((l) => l.zoneId === z.zoneId && l.root === z.root)!;
  const viewOf = (z: ZoneReport) => views.find((v) => v.zone.zoneId === z.zoneId && v.zone.root === z.root)!;

  it.each(CASES)("$name: summary $summary, overview $group", (c) => {
    const line = lineOf(c.zone);
    const view = viewOf(c.zone);
    expect(line.status).toBe(c.summary);
    expect(view.detail).toBe(line.status);
    expect(view.status).toBe(c.group);
  });

  it("the reasons agree: the same blocking codes, the same unresolved setting, ruleset root and ruleset to merge into", () => {
    for (const c of CASES) {
      const line = lineOf(c.zone);
      const view = viewOf(c.zone);
      if (line.status === "blocked") expect(view.reasons.map((r) => (r.startsWith("not compatible:") ? "URI_WAF_OVERRIDE" : r.split(":")[0]!.split(" ")[0]))).toEqual(line.reasons);
    }
    expect(lineOf(CASES[1]!.zone).reasons).toEqual(["PROVIDER_FEATURE_MISSING"]);
    expect(lineOf(CASES[3]!.zone).reasons).toEqual(["cloudflare_waf_package.owasp.sensitivity"]);
    expect(viewOf(CASES[3]!.zone).reasons).toEqual(["1 setting not known offline (VALUE_UNRESOLVED)"]);
    expect(lineOf(CASES[4]!.zone).reasons).toEqual(["the zone id is not known offline"]);
    expect(viewOf(CASES[4]!.zone).reasons).toEqual(["the zone id is not known offline (VALUE_UNRESOLVED)"]);
    expect(lineOf(CASES[5]!.zone).reasons).toEqual([`cf-waf-migrate api entrypoint --zone ${id(6)}`]);
    expect(viewOf(CASES[5]!.zone).reasons[0]).toContain(`cf-waf-migrate api entrypoint --zone ${id(6)}`);
    expect(lineOf(CASES[6]!.zone).reasons).toEqual(["c"]);
    expect(viewOf(CASES[6]!.zone).reasons).toEqual(["its one ruleset, with this root's skip rules, is generated in c"]);
    expect(summarySentence(lineOf(CASES[7]!.zone))).toContain("ready; merge its skip rules into the existing cloudflare_ruleset.waf (MANAGED_RULESET_EXISTS)");
    expect(viewOf(CASES[7]!.zone).reasons).toEqual(["merge its skip rules into the existing cloudflare_ruleset.waf (MANAGED_RULESET_EXISTS)"]);
    expect(lineOf(CASES[8]!.zone).reasons).toEqual([]);
    expect(viewOf(CASES[8]!.zone).reasons).toEqual([]);
  });

  it("the page shows each badge and the PR comment each status, for the same zones", () => {
    const page = renderHtml(report, { title: "scan" });
    const md = renderMarkdown(report);
    for (const c of CASES) {
      const row = page.match(new RegExp(`<tr data-zone-status="${c.group}" data-zone-search="[^"]*${c.zone.zoneId.replace(/\./g, "\\.")}[\\s\\S]*?</tr>`));
      expect(row, c.name).not.toBeNull();
      expect(row![0]).toContain(`</span>${c.badge}</span>`);
    }
    const labels = { blocked: "BLOCKED", "needs-values": "NEEDS VALUES", "needs-ruleset-id": "NEEDS ID", "ruleset-elsewhere": "SPLIT", ready: "READY" } as Record<string, string>;
    for (const c of CASES) expect(md, c.name).toMatch(new RegExp(`- \\*\\*${labels[c.summary]}\\*\\* \`${c.zone.zoneId.replace(/\./g, "\\.")}\` in \`${c.zone.root}\``));
  });

  it("the rule alone: errors first, then values not known offline, then where the ruleset is, then its id", () => {
    const z = zone(id(10), "a", { compatible: false, unresolved: [unresolved] as ZoneReport["unresolved"], rulesetIn: { root: "c", workspace: "default" } } as Partial<ZoneReport>);
    expect(zoneStatus(z, []).status).toBe("blocked");
    expect(zoneStatus({ ...z, compatible: true }, []).status).toBe("needs-values");
    expect(zoneStatus({ ...z, compatible: true, unresolved: undefined }, []).status).toBe("ruleset-elsewhere");
    expect(zoneStatus({ ...z, compatible: true, unresolved: undefined }, [], [finding("PROVIDER_FEATURE_MISSING", "error", null, "a")])).toEqual({ status: "blocked", reasons: ["PROVIDER_FEATURE_MISSING"] });
    // Migrating is what lets the provider move on: the upgrade gate's error never stops a zone's migration.
    expect(zoneStatus({ ...z, compatible: true, unresolved: undefined }, [], [finding("PROVIDER_UPGRADE_BLOCKED", "error", null, "a")]).status).toBe("ruleset-elsewhere");
  });
});
