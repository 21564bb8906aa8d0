// The HTML page as a pure function of the report: everything from the user's files is escaped, the CSP's
// hashes are those of the inline style and script, nothing outside the page is referenced, and the zone
// statuses, paranoia levels and estate columns come out of the report as it says.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PlanStep, Report, ZoneReport } from "../../src/core/model.js";
import { renderHtml } from "../../src/render/html/index.js";
import { escapeHtml, html } from "../../src/render/html/template.js";
import { statusOf, zoneViews } from "../../src/render/html/status.js";
import { paranoiaLevel } from "../../src/render/html/zone.js";
import { ORDER_REASON } from "../../src/render/html/plan.js";
import { replicateZones } from "../../scripts/bench/html-estate.mjs";
import { handReport, multiZoneReport, SHOP } from "./fixtures.js";

const HOSTILE = `<img src=x onerror="alert(1)">&'`;

/** A report whose every user-supplied string carries markup. */
function hostileReport(): Report {
  const r = handReport();
  const z = r.zones[0]!;
  z.zoneName = `shop${HOSTILE}`;
  z.ruleset.rules[0]!.description = `desc ${HOSTILE}`;
  z.ruleset.rules[0]!.expression = `http.host eq "${HOSTILE}"`;
  z.stateRemovals = [`cloudflare_waf_rule.r["${HOSTILE}"]`];
  z.legacy = {
    packages: [{ address: "cloudflare_waf_package.owasp", file: `waf${HOSTILE}.tf`, line: 3, packageId: "p", sensitivity: HOSTILE, actionMode: "block", kind: "owasp" }],
    groups: [],
    rules: [],
    overrides: [],
    firewallRules: [{ address: "cloudflare_firewall_rule.ops", file: "fw.tf", line: 9, action: "bypass", products: ["waf"], expression: `ip.src eq 1.2.3.4 ${HOSTILE}`, description: `ops ${HOSTILE}`, paused: false }],
    pageRules: [{ address: "cloudflare_page_rule.p", file: "pr.tf", line: 1, target: `*${HOSTILE}/*`, disableSecurity: true, waf: null, status: "active" }],
    zoneWafSettings: [],
  };
  r.findings[0]!.message = `message ${HOSTILE}`;
  r.plan!.steps[1]!.commands.push(`echo '${HOSTILE}'`);
  r.errors[0]!.message = `bad ${HOSTILE}`;
  return r;
}

/** The text between `<tag>` and `</tag>` (the page has exactly one of each). */
function inline(page: string, tag: "style" | "script"): string {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(page);
  expect(m).not.toBeNull();
  return m![1]!;
}

describe("escaping", () => {
  it("escapes the five characters that end text or an attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });

  it("the tag escapes values and keeps fragments it built", () => {
    const inner = html`<b>${"<i>"}</b>`;
    expect(html`<p>${inner}${["<x>", 1, null, false]}</p>`.value).toBe("<p><b>&lt;i&gt;</b>&lt;x&gt;1</p>");
  });

  it("no string from the report reaches the page as markup", () => {
    const page = renderHtml(hostileReport(), { title: "plan" });
    expect(page).not.toContain("<img");
    expect(page).not.toMatch(/onerror="/);
    // Each hostile string is there, as text.
    const escaped = escapeHtml(HOSTILE);
    for (const text of ["shop", "desc ", "ops ", "message ", "bad ", "ip.src eq 1.2.3.4 ", "*"]) expect(page).toContain(text + escaped);
    expect(page).toContain(`echo &#39;${escaped}&#39;`);
  });
});

describe("page shell", () => {
  it("the CSP allows exactly the inline style and script, by their sha256, and nothing else", () => {
    const page = renderHtml(handReport(), { title: "scan" });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!.replace(/&#39;/g, "'");
    const sha = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src ${sha(inline(page, "style"))}`);
    expect(csp).toContain(`script-src ${sha(inline(page, "script"))}`);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  });

  it("references nothing outside the page: no URL, no style attribute, no inline handler", () => {
    const page = renderHtml(hostileReport(), { title: "plan" });
    expect(page).not.toMatch(/(src|href)="(?!#)/);
    expect(page).not.toMatch(/\sstyle="/);
    expect(page).not.toMatch(/\son[a-z]+="/);
    expect(page).not.toMatch(/https?:\/\//);
  });
});

describe("content", () => {
  it("shows every zone, its legacy addresses, its ruleset and the plan's order reason once", async () => {
    const report = await multiZoneReport();
    report.plan = { steps: [{ number: 5, title: "Remove from state", commands: ["terraform state rm -dry-run 'a.b'"] }] };
    const page = renderHtml(report, { title: "plan" });
    for (const z of report.zones) {
      expect(page).toContain(z.zoneId);
      for (const a of [...z.legacy!.packages, ...z.legacy!.groups, ...z.legacy!.rules, ...z.legacy!.firewallRules, ...z.legacy!.pageRules]) {
        expect(page).toContain(escapeHtml(a.address));
        if (a.file) expect(page).toContain(escapeHtml(`testdata/multi-zone/${a.file}:${a.line}`));
      }
    }
    expect(page.split(escapeHtml(ORDER_REASON)).length - 1).toBe(1);
    expect(page).toContain("PL1");
    expect(page).toContain('data-copy-target="cmd-5-1"');
  });

  it("an estate plan: one list of steps per root and workspace, the order's reason once", () => {
    const r = handReport();
    r.plan = {
      steps: [
        { number: 5, title: "Remove", commands: ["terraform state rm a"], root: "live/prod", workspace: "default" },
        { number: 5, title: "Remove", commands: ["terraform state rm b"], root: "live/staging", workspace: "eu" },
      ] as PlanStep[],
    };
    const page = renderHtml(r, { title: "plan" });
    expect(page).toContain("<h3>Root <code>live/prod</code></h3>");
    expect(page).toContain("<h3>Root <code>live/staging (workspace eu)</code></h3>");
    expect(page).toContain('data-copy-target="cmd-g2-5-1"');
    expect(page.split(escapeHtml(ORDER_REASON)).length - 1).toBe(1);
  });

  it("statuses: blocked by an error, unknown with unresolved settings, else ready (a managed ruleset to merge into included)", () => {
    const base = handReport().zones[1]! as ZoneReport;
    const f = (code: string, severity: "error" | "warning" | "info") => ({ code, severity, message: "", zoneId: base.zoneId, address: null, file: null, line: null });
    expect(statusOf(base, [f("URI_WAF_OVERRIDE", "error")]).status).toBe("blocked");
    expect(statusOf({ ...base, compatible: false }, []).status).toBe("blocked");
    expect(statusOf({ ...base, unresolved: [{ address: "a", attribute: "mode", expression: "var.x", reason: "r", file: null, line: null }] }, []).status).toBe("unknown");
    const empty = { packages: [], groups: [], rules: [], overrides: [], firewallRules: [], pageRules: [], zoneWafSettings: [] };
    // A zone entry exists only while something is left to migrate (here its WAF-bypass rules become skip rules):
    // an existing entry point ruleset makes it ready to merge into, not migrated; the summary says the same.
    const known = { ...base, imports: [{ to: "cloudflare_ruleset.waf", id: `zone/${base.zoneId}/0123456789abcdef0123456789abcdef` }] };
    const merge = statusOf({ ...known, stateRemovals: [], legacy: empty }, [{ ...f("MANAGED_RULESET_EXISTS", "info"), address: "cloudflare_ruleset.waf" }]);
    expect(merge).toEqual({ status: "ready", detail: "ready", reasons: ["merge its skip rules into the existing cloudflare_ruleset.waf (MANAGED_RULESET_EXISTS)"] });
    const ready = statusOf(known, [f("REMOTE_MODULE_NOT_FOLLOWED", "warning"), f("LEGACY_WAF_RESOURCE", "warning")]);
    expect(ready).toEqual({ status: "ready", detail: "ready", reasons: ["REMOTE_MODULE_NOT_FOLLOWED"] });
    // The hand report's zone imports `zone/<id>/<RULESET_ID>`: ready in the overview, worded as waiting for its id.
    // RULESET_ID_UNKNOWN is said once, in words; other warnings still follow.
    const needsId = statusOf(base, [f("RULESET_ID_UNKNOWN", "warning"), f("LEGACY_WAF_RESOURCE", "warning"), f("STATE_CONFIG_DRIFT", "warning")]);
    expect(needsId).toEqual({
      status: "ready",
      detail: "needs-ruleset-id",
      reasons: [`its import id needs the zone's entry point ruleset id (RULESET_ID_UNKNOWN): run cf-waf-migrate api entrypoint --zone ${base.zoneId}`, "STATE_CONFIG_DRIFT"],
    });
  });

  it("an error about the zone's instance as a whole (no zone id) blocks each zone of that instance, as the text summary says", () => {
    // The hand report without its own blockers: every zone compatible, no error finding.
    const clean = (): Report => {
      const x = handReport();
      x.findings = x.findings.filter((f) => f.severity !== "error");
      x.zones = x.zones.map((z) => ({ ...z, compatible: true, unresolved: [] }));
      return x;
    };
    const r = clean();
    const before = zoneViews(r).map((v) => v.status);
    expect(before.filter((s) => s !== "blocked").length).toBeGreaterThan(0);
    r.findings.push({ code: "PROVIDER_FEATURE_MISSING", severity: "error", message: "the provider cannot import a ruleset", zoneId: null, address: null, file: "versions.tf", line: 3 });
    const after = zoneViews(r);
    expect(after.map((v) => v.status)).toEqual(after.map(() => "blocked"));
    const wasOpen = before.findIndex((s) => s !== "blocked");
    expect(after[wasOpen]!.reasons[0]).toMatch(/^PROVIDER_FEATURE_MISSING: /);
    // A warning without a zone blocks nothing.
    const w = clean();
    w.findings.push({ code: "REMOTE_MODULE_NOT_FOLLOWED", severity: "warning", message: "", zoneId: null, address: null, file: null, line: null });
    expect(zoneViews(w).map((v) => v.status)).toEqual(before);
  });

  it("paranoia level is one below the lowest disabled paranoia category, else the ruleset default", () => {
    const rule = (cats: number[]) => ({
      action: "execute",
      expression: "true",
      description: "",
      enabled: true,
      action_parameters: { id: "x", overrides: { categories: cats.map((n) => ({ category: `paranoia-level-${n}`, enabled: false })) } },
    });
    expect(paranoiaLevel(rule([2, 3, 4]))).toBe(1);
    expect(paranoiaLevel(rule([3, 4]))).toBe(2);
    expect(paranoiaLevel(rule([]))).toBeNull();
  });

  it("an estate report: one row per zone, root and workspace; findings stay with their instance", async () => {
    const estate = replicateZones(await multiZoneReport(), 6, { roots: 2 }) as Report;
    const views = zoneViews(estate);
    expect(views).toHaveLength(6);
    for (const v of views) for (const f of v.findings) expect([f.zoneId, (f as { root?: string }).root]).toEqual([v.zone.zoneId, v.zone.root]);
    // A zone split across roots: the other root's entry says where its one ruleset is generated.
    (estate.zones[1] as ZoneReport & { rulesetIn?: object }).rulesetIn = { root: "live/team-000", workspace: "default" };
    const page = renderHtml(estate, { title: "scan" });
    expect(page).toContain("<code>live/team-001 (workspace eu)</code>");
    expect(page).toContain("is generated in root <code>live/team-000</code>");
    expect(views.length && zoneViews(estate)[1]!.reasons.at(-1)).toBe("its one ruleset, with this root's skip rules, is generated in live/team-000");
    expect(page.match(/<tr data-zone-status=/g)).toHaveLength(6);
    // Zones an instance has already migrated (roots[].migratedZones) are counted and listed, without details.
    const done = { ...estate, roots: [{ path: "live/migrated", workspace: "default", states: [], migratedZones: ["7c5b3a1f9e8d7c6b5a4f3e2d1c0b9a8f"] }] } as Report;
    const withMigrated = renderHtml(done, { title: "scan" });
    expect(withMigrated.match(/<tr data-zone-status=/g)).toHaveLength(7);
    expect(withMigrated).toMatch(/<tr data-zone-status="migrated" data-zone-search="7c5b3a1f9e8d7c6b5a4f3e2d1c0b9a8f">[\s\S]*?<code>live\/migrated<\/code>/);
    expect(withMigrated).toContain('<option value="migrated">Migrated (1)</option>');
    // Over the open threshold zones start closed; below it they start open.
    expect(page).toContain("<details open>");
    const big = renderHtml(replicateZones(await multiZoneReport(), 30) as Report, { title: "scan" });
    expect(big).not.toContain("<details open>");
  });

  it("a certs report shows the timeline with the as-of day and each certificate's urgency", () => {
    const r = { ...handReport(), zones: [], plan: undefined, findings: [], certs: {
      asOf: "2024-08-20",
      timeline: [
        { date: "2024-06", start: "2024-06-01", end: "2024-06-30", change: "switch", status: "past", days: -80, relative: "51 days ago" },
        { date: "2024-09-09", start: "2024-09-09", end: "2024-09-09", change: "stop <cross>", status: "future", days: 20, relative: "in 20 days" },
      ],
      certificates: [{ address: "cloudflare_certificate_pack.adv", kind: "advanced", file: "certs.tf", line: 2, zone: SHOP, certificateAuthority: "lets_encrypt", inConfig: true, inState: false }],
    } } as unknown as Report;
    r.findings = [{ code: "CERT_ADVANCED_LETS_ENCRYPT", severity: "warning", message: "m", zoneId: SHOP, address: "cloudflare_certificate_pack.adv", file: "certs.tf", line: 2, details: { urgency: "soon", deadline: "2024-09-09", action: "switch the CA", kind: "advanced" } }];
    const page = renderHtml(r, { title: "certs" });
    const asOf = page.indexOf("2024-08-20 · as of");
    expect(asOf).toBeGreaterThan(page.indexOf("2024-06"));
    expect(asOf).toBeLessThan(page.indexOf("<strong>2024-09-09</strong>"));
    expect(page).toContain("stop &lt;cross&gt;");
    expect(page).toContain("Due within 30 days");
    expect(page).toContain("2024-09-09 (in 20 days)");
  });
});
