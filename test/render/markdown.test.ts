// Markdown for pull-request comments: a golden snapshot of a small report, table integrity (no cell ever
// breaks its row), escaping of pipes, newlines and markup, code fences, and the real example.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { RENDERERS } from "../../src/render/index.js";
import { cell, codeSpan, fenced, inline, renderMarkdown } from "../../src/render/markdown.js";
import { renderPlanMarkdown } from "../../src/plan/plan-markdown.js";
import { expectGolden } from "../support/golden.js";
import { emptyReport, handReport, multiZoneReport, SHOP } from "./fixtures.js";

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), "golden");

/** Splits a GFM table row on the pipes that delimit cells (not `\|`). */
function cells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((c) => c.trim());
}

/** Every table in the text: each row has as many cells as its header, and the delimiter row is right. */
function checkTables(md: string): number {
  const lines = md.split("\n");
  let tables = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("|") || !/^\| *:?-{3,}/.test(lines[i + 1] ?? "")) continue;
    tables++;
    const width = cells(lines[i]!).length;
    expect(cells(lines[i + 1]!).every((c) => /^:?-{3,}:?$/.test(c))).toBe(true);
    expect(cells(lines[i + 1]!)).toHaveLength(width);
    let j = i + 2;
    for (; j < lines.length && lines[j]!.startsWith("|"); j++) {
      expect([lines[j], cells(lines[j]!).length]).toEqual([lines[j], width]);
    }
    // A table ends at a blank line.
    expect(lines[j] ?? "").toBe("");
    i = j;
  }
  return tables;
}

/** Code fences are balanced (an opening fence is closed by one of at least its length). */
function checkFences(md: string): number {
  let open: string | null = null;
  let blocks = 0;
  for (const line of md.split("\n")) {
    const m = /^ *(`{3,})(.*)$/.exec(line);
    if (!m) continue;
    if (open === null) {
      open = m[1]!;
      blocks++;
    } else if (m[1]!.length >= open.length && m[2]!.trim() === "") open = null;
  }
  expect(open).toBeNull();
  return blocks;
}

describe("renderMarkdown on a small report", () => {
  const report = handReport("infra/prod");

  it("matches the golden file", () => {
    expectGolden(path.join(GOLDEN, "hand-report.md"), renderMarkdown(report, { title: "plan" }));
  });

  it("heading with the counts; tables intact; fences balanced", () => {
    const md = renderMarkdown(report, { title: "plan" });
    expect(md.split("\n")[0]).toBe("## cf-waf-migrate plan: 2 zones · 3 errors · 6 warnings · 2 info · 3 unreadable inputs");
    // The findings by code; per zone: findings + ruleset (2 zones); other findings; input errors.
    expect(checkTables(md)).toBe(1 + 2 * 2 + 1 + 1);
    // Per zone: import + removals; the plan's one step with commands.
    expect(checkFences(md)).toBe(2 * 2 + 1);
  });

  it("escapes pipes and newlines in cells, keeps the message's own code spans", () => {
    const md = renderMarkdown(report);
    expect(md).toContain("| expression is 5000 bytes \\| over the 4096 limit<br>second line |");
    expect(md).toContain("pass --ruleset-id ZONE=&lt;id&gt;; run `cf-waf-migrate api entrypoint --zone x\\|y`");
    expect(md).toContain('required_providers allows "\\~&gt; 4.0" &amp; legacy resources remain &lt;now&gt;');
    // The expression's pipe inside a code span in a table cell.
    expect(md).toContain('| `(http.request.uri.path eq "/a\\|b")` |');
    // Locations are relative to the working directory (root joined).
    expect(md).toContain("| **error** | `URI_WAF_OVERRIDE` | `infra/prod/main.tf:5` |");
    // No location: the address says where.
    expect(md).toContain("| warning | `STATE_CONFIG_DRIFT` | `cloudflare_waf_group.retired` |");
  });

  it("imports as HCL import blocks, removals exactly as `terraform state list` prints them", () => {
    const md = renderMarkdown(report);
    expect(md).toContain(
      ["```hcl", "import {", "  to = cloudflare_ruleset.waf_managed_shop_example_com", `  id = "zone/${SHOP}/<RULESET_ID>"`, "}", "```"].join("\n"),
    );
    expect(md).toContain(["```text", 'module.waf["shop"].cloudflare_waf_package.owasp', "cloudflare_waf_rule.r[0]", "```"].join("\n"));
  });

  it("plan steps as a numbered list with their commands in sh blocks", () => {
    const md = renderMarkdown(report);
    expect(md).toContain("<details><summary>Plan (2 steps)</summary>\n\n1. Check the zones\n\n   \\- nothing to run\n\n2. Remove the legacy resources from state\n\n   ```sh\n");
    expect(md).toContain("   terraform state rm -dry-run 'module.waf[\"shop\"].cloudflare_waf_package.owasp'\n");
  });

  it("input errors with their locations", () => {
    const md = renderMarkdown(report);
    expect(md).toContain("| `infra/prod/broken.tf:7:3` | Invalid expression |");
    expect(md).toContain("| `infra/prod/terraform.tfstate` | state is truncated (unexpected end of JSON) |");
    expect(md).toContain("| `<stdin>` | standard input can be read only once |");
  });

  it("control characters never reach the comment raw", () => {
    const md = renderMarkdown(report);
    expect(md).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    expect(md).toContain("control \\\\u0001 chars \\\\u001b[31m and a lone \\\\ud800 surrogate");
  });

  it("is deterministic, pure, and what RENDERERS.markdown returns", () => {
    const r = handReport();
    const before = JSON.stringify(r);
    expect(renderMarkdown(r, { title: "scan" })).toBe(renderMarkdown(r, { title: "scan" }));
    expect(JSON.stringify(r)).toBe(before);
    expect(RENDERERS.markdown(r, { color: true, title: "scan" })).toBe(renderMarkdown(r, { title: "scan" }));
  });

  it("an empty report says nothing was found", () => {
    const md = renderMarkdown(emptyReport());
    expect(md).toBe(
      "## cf-waf-migrate scan: 0 zones · 0 errors · 0 warnings · 0 info\n\n0 resources (0 in config, 0 in state)\n\nNo previous-WAF resources or WAF-related settings found.\n",
    );
  });
});

describe("markdown escaping helpers", () => {
  it("cell: pipes, newlines, HTML, emphasis, links", () => {
    expect(cell("a|b")).toBe("a\\|b");
    expect(cell("one\ntwo\r\nthree")).toBe("one<br>two<br>three");
    expect(cell("<RULESET_ID> & *x*")).toBe("&lt;RULESET_ID&gt; &amp; \\*x\\*");
    expect(cell("_lead and trail_")).toBe("\\_lead and trail\\_");
    expect(cell("cloudflare_waf_group.off[\"a\"]")).toBe('cloudflare_waf_group.off["a"]');
    expect(cell("[x](http://evil)")).toBe("\\[x\\](http://evil)");
    expect(cell("see #12 ~~old~~")).toBe("see \\#12 \\~\\~old\\~\\~");
    expect(cell("run `a | b` now")).toBe("run `a \\| b` now");
    expect(cell("lone ` tick")).toBe("lone \\` tick");
    expect(cell("back\\slash")).toBe("back\\\\slash");
  });

  it("inline: list markers at the start", () => {
    expect(inline("- item")).toBe("\\- item");
    expect(inline("12. step")).toBe("12\\. step");
    expect(inline("a - b")).toBe("a - b");
  });

  it("codeSpan picks a fence longer than any backtick run inside", () => {
    expect(codeSpan("plain")).toBe("`plain`");
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`x`")).toBe("`` `x` ``");
    expect(codeSpan("a|b", true)).toBe("`a\\|b`");
    expect(codeSpan("a|b")).toBe("`a|b`");
    expect(codeSpan("two\nlines")).toBe("`two lines`");
  });

  it("fenced picks a fence longer than any fence inside", () => {
    expect(fenced("sh", "echo ```")).toEqual(["````sh", "echo ```", "````"]);
    expect(fenced("text", "a\nb")).toEqual(["```text", "a", "b", "```"]);
  });
});

describe("renderMarkdown on the multi-zone example", () => {
  it("a section per zone, tables intact, ruleset and removals present", async () => {
    const report: Report = await multiZoneReport();
    const md = renderMarkdown(report, { title: "scan" });
    const errors = report.findings.filter((f) => f.severity === "error").length;
    expect(md.split("\n")[0]).toContain(`${report.zones.length} zones · ${errors} error`);
    // The findings by code, then per zone: findings + ruleset.
    expect(checkTables(md)).toBe(1 + report.zones.length * 2);
    checkFences(md);
    for (const z of report.zones) {
      expect(md).toContain(`### Zone \`${z.zoneId}\` (${z.zoneName})`);
      for (const a of z.stateRemovals) expect(md).toContain(`\n${a}\n`);
    }
    expect(md).toContain("`testdata/multi-zone/modules/uri-overrides/main.tf:5`");
    // Every finding has a row.
    const rows = md.split("\n").filter((l) => /^\| (\*\*error\*\*|warning|info) \|/.test(l));
    expect(rows).toHaveLength(report.findings.length);
  });
});

describe("renderMarkdown on an estate of 2,000 zones", () => {
  // Built from the hand report's zone: every third zone blocked (a URI override), every third to act on
  // (legacy resources), the rest ready; 2,000 zones render to megabytes without the budget.
  function estate(n: number): Report {
    const base = handReport("infra/prod");
    const template = base.zones[1]!;
    const report: Report = { ...base, zones: [], findings: [], errors: [] };
    for (let i = 0; i < n; i++) {
      const zoneId = i.toString(16).padStart(32, "0");
      const kind = i % 3;
      report.zones.push({ ...template, zoneId, zoneName: `z${i}.example.com`, compatible: kind !== 0 });
      const at = { zoneId, address: `cloudflare_waf_group.g${i}`, file: `zones/z${i}.tf`, line: 3 };
      if (kind === 0) report.findings.push({ ...at, code: "URI_WAF_OVERRIDE", severity: "error", message: `zone z${i} has a URI-based override` });
      if (kind !== 2) report.findings.push({ ...at, code: "LEGACY_WAF_RESOURCE", severity: "warning", message: `legacy group g${i}` });
      report.findings.push({ ...at, code: "VALIDATION_MODE_UNAVAILABLE", severity: "info", message: "pending only" });
    }
    for (let i = 0; i < 500; i++) report.errors.push({ file: `broken/b${i}.tf`, line: 1, column: 1, message: "Invalid expression" });
    return report;
  }
  const report = estate(2000);
  const md = renderMarkdown(report, { title: "scan" });

  it("stays under 60,000 characters, summary first, counts right", () => {
    expect(md.length).toBeLessThan(60_000);
    const lines = md.split("\n");
    expect(lines[0]).toBe("## cf-waf-migrate scan: 2000 zones · 667 errors · 1334 warnings · 2000 info · 500 unreadable inputs");
    expect(md).toContain("**Zones:** 667 blocked · 667 to act on · 666 ready");
    expect(md).toContain("| `URI_WAF_OVERRIDE` | **error** | 667 |");
    expect(md).toContain("| `LEGACY_WAF_RESOURCE` | warning | 1334 |");
    expect(md).toContain("| `VALIDATION_MODE_UNAVAILABLE` | info | 2000 |");
    expect(md).toContain("### Zones that need action (1334)");
    // Blocked zones are listed before zones that only have warnings.
    const needs = lines.filter((l) => l.startsWith("- `"));
    expect(needs[0]).toBe("- `00000000000000000000000000000000` (z0.example.com): **blocked by** `URI_WAF_OVERRIDE`; to act on: `LEGACY_WAF_RESOURCE`");
    // The summary comes before any detail.
    expect(md.indexOf("### Zones that need action")).toBeLessThan(md.indexOf("<details>"));
  });

  it("cuts each part whole, with how many more and where to look", () => {
    const cuts = [...md.matchAll(/^… and (\d+) more (zones|unreadable inputs), see the JSON report \(`--format json`\)\.$/gm)];
    expect(cuts.length).toBeGreaterThanOrEqual(2);
    const listed = md.split("\n").filter((l) => l.startsWith("- `")).length;
    const cutZones = Number(cuts.find((c) => c[2] === "zones")![1]);
    // The cut line of the summary list counts exactly what it left out.
    expect(listed + cutZones).toBe(1334);
    checkTables(md);
    checkFences(md);
    expect(md.split("<details>").length).toBe(md.split("</details>").length);
  });

  it("honours a smaller limit, and never cuts a small report", () => {
    expect(renderMarkdown(report, { maxChars: 10_000 }).length).toBeLessThan(10_000);
    const small = handReport("infra/prod");
    expect(renderMarkdown(small)).not.toContain("more zones, see the JSON report");
    expect(renderMarkdown(small)).not.toMatch(/^… and \d+ more/m);
  });
});

describe("PLAN.md (plan --format markdown) on an estate of 2,000 zones", () => {
  it("stays under 60,000 characters with the counts and what to act on first", () => {
    const base = handReport("infra/prod");
    const zones = Array.from({ length: 2000 }, (_, i) => ({ ...base.zones[1]!, zoneId: i.toString(16).padStart(32, "0"), zoneName: `z${i}.example.com` }));
    const findings = zones.map((z, i) => ({ code: "LEGACY_WAF_RESOURCE", severity: "warning" as const, message: `legacy group g${i}`, zoneId: z.zoneId, address: `cloudflare_waf_group.g${i}`, file: `z${i}.tf`, line: 1 }));
    const stateRemovals = zones.map((_, i) => `cloudflare_waf_group.g${i}`);
    const report: Report = { ...base, zones, findings, errors: [], plan: { steps: [{ number: 5, title: "Remove from state", commands: ["terraform state rm -dry-run …"] }] } };
    const md = renderPlanMarkdown({ report, providerMajor: 4, artifacts: [{ file: "report.json", purpose: "the JSON report" }], stateRemovals });
    expect(md.length).toBeLessThan(60_000);
    expect(md).toContain("2000 zones (0 not compatible) · 2000 findings to act on · 2000 state addresses to remove");
    expect(md.indexOf("## To act on")).toBeLessThan(md.indexOf("## Steps"));
    // The steps and the artifacts are never what gets cut; the long lists are, with a count.
    expect(md).toContain("### 5. Remove from state");
    expect(md).toContain("- `report.json`: the JSON report");
    expect(md).toMatch(/^… and \d+ more findings, see the JSON report/m);
    checkTables(md);
    checkFences(md);
  });
});
