// A module block with no instance gives one "no instance here" finding per root and workspace that calls
// it; outside every zone, those findings are told apart only by the instance, so every human-readable
// format names it there (and only in an estate: one root needs no label).
import { describe, expect, it } from "vitest";
import type { Finding, Report } from "../../src/core/model.js";
import { renderText } from "../../src/render/text.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderHtml } from "../../src/render/html/index.js";
import { handReport } from "./fixtures.js";

function noInstance(workspace: string): Finding {
  return {
    code: "LEGACY_WAF_RESOURCE",
    severity: "warning",
    message: "module.waf.cloudflare_waf_group.experimental is a previous-WAF resource whose count/for_each gives no instance here",
    zoneId: null,
    address: "module.waf.cloudflare_waf_group.experimental",
    file: "modules/zone-waf/main.tf",
    line: 26,
    root: "live/prod",
    workspace,
  };
}

function estateReport(): Report {
  const r = handReport(".");
  r.roots = [
    { path: "live/prod", workspace: "eu", states: [] },
    { path: "live/prod", workspace: "us", states: [] },
  ];
  r.findings.push(noInstance("eu"), noInstance("us"));
  return r;
}

describe("findings outside every zone name their instance in an estate", () => {
  it("text", () => {
    const text = renderText(estateReport(), { color: false, title: "gate" });
    const other = text.slice(text.indexOf("Other findings"));
    expect(other).toContain("modules/zone-waf/main.tf:26 in live/prod (workspace eu)");
    expect(other).toContain("modules/zone-waf/main.tf:26 in live/prod (workspace us)");
  });

  it("Markdown", () => {
    const md = renderMarkdown(estateReport(), { title: "gate" });
    const other = md.slice(md.indexOf("Other findings"));
    expect(other).toMatch(/main\.tf:26`[^|]* in live\/prod \(workspace eu\) \|/);
    expect(other).toMatch(/main\.tf:26`[^|]* in live\/prod \(workspace us\) \|/);
  });

  it("HTML", () => {
    const page = renderHtml(estateReport(), { title: "gate" });
    const other = page.slice(page.indexOf('id="other-title"'));
    expect(other).toContain("in live/prod (workspace eu)");
    expect(other).toContain("in live/prod (workspace us)");
  });

  it("one root: no instance label", () => {
    const r = handReport(".");
    r.findings.push({ ...noInstance("default"), root: undefined, workspace: undefined });
    const text = renderText(r, { color: false, title: "gate" });
    expect(text).toContain("modules/zone-waf/main.tf:26\n");
    expect(text).not.toContain(" in live/prod");
  });
});
