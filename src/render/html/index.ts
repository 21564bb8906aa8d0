// `--format html`: one self-contained page for reviewers (docs/report-format.md, README "The HTML report").
// Estate overview, each zone's previous WAF beside its new ruleset, the plan with copy buttons, the
// certificate timeline; the input errors and the findings of no zone. Pure: report in, text out.
import type { Report } from "../../core/model.js";
import { html, type SafeHtml } from "./template.js";
import { renderPage } from "./page.js";
import { renderOverview } from "./overview.js";
import { OPEN_ZONES_UP_TO, renderZone } from "./zone.js";
import { renderPlan } from "./plan.js";
import { renderCerts } from "./certs.js";
import { location, plural, severityBadge, table } from "./parts.js";
import { migratedEntries, zoneViews, type ZoneView } from "./status.js";
import { errorPath, withLine } from "../../core/report-paths.js";
import { otherFindingInstance } from "../instances.js";

export interface HtmlOptions {
  /** The command that produced the report (`scan`, `plan`, `gate`, `certs`, `merge`). */
  title?: string;
  /** `gate`: its verdict line and the provider upgrade's status, shown first. */
  verdict?: { failed: boolean; line: string; notes: string[] };
}

export function renderHtml(report: Report, opts: HtmlOptions = {}): string {
  const title = `cf-waf-migrate ${opts.title ?? "scan"}`;
  const views = zoneViews(report);
  const isCerts = "certs" in report && (report as { certs?: unknown }).certs !== undefined;
  const body: SafeHtml[] = [];
  if (opts.verdict) body.push(verdict(opts.verdict));
  body.push(inputErrors(report));
  if (isCerts) body.push(renderCerts(report));
  else {
    const migrated = migratedEntries(report);
    body.push(views.length || migrated.length ? renderOverview(report, views, migrated) : html`<p>No previous-WAF resources or WAF-related settings found.</p>`);
    body.push(renderPlan(report));
    body.push(zones(report, views));
    body.push(otherFindings(report, views));
  }
  return renderPage({ title, header: header(report, title), body: html`${body}` });
}

function header(report: Report, title: string): SafeHtml {
  const count = (s: string) => report.findings.filter((f) => f.severity === s).length;
  return html`<h1>${title} report</h1>
<p class="meta">${report.tool.name} ${report.tool.version} · files relative to the working directory${report.root && report.root !== "." ? html` · scanned <code>${report.root}</code>` : ""} · ${plural(report.resources.length, "resource")} · ${severityBadge("error")} ${count("error")} · ${severityBadge("warning")} ${count("warning")} · ${severityBadge("info")} ${count("info")}${report.errors.length ? html` · <strong>${plural(report.errors.length, "unreadable input")}</strong>` : ""}</p>`;
}

function zones(report: Report, views: ZoneView[]): SafeHtml {
  if (!views.length) return html``;
  const open = views.length <= OPEN_ZONES_UP_TO;
  return html`<section aria-labelledby="zones-title"${open ? "" : html` class="zones-many"`}><h2 id="zones-title">Zones: before and after</h2>
${open ? "" : html`<p class="muted">${views.length} zones: each opens from its link in the overview, or with “Expand all zones”.</p>`}
${views.map((v) => renderZone(report, v, open))}</section>`;
}

function otherFindings(report: Report, views: ZoneView[]): SafeHtml {
  const placed = new Set(views.flatMap((v) => v.findings));
  const other = report.findings.filter((f) => !placed.has(f));
  if (!other.length) return html``;
  return html`<section aria-labelledby="other-title"><h2 id="other-title">Other findings (${other.length})</h2>
${table("Findings that belong to no zone of this report", ["Severity", "Finding", "Where"], other.map((f) => html`<tr><td>${severityBadge(f.severity)}</td><td><code>${f.code}</code><br>${f.message}</td><td>${location(report, f.file, f.line)}${f.address ? html`<br><code class="addr">${f.address}</code>` : ""}${otherFindingInstance(report, f)}</td></tr>`))}</section>`;
}

function inputErrors(report: Report): SafeHtml {
  if (!report.errors.length) return html``;
  return html`<section aria-labelledby="errors-title"><h2 id="errors-title">${severityBadge("error")} Input that could not be read (${report.errors.length})</h2>
<p>The rest of the report covers everything that could be read.</p>
<ul>${report.errors.map((e) => html`<li><code>${withLine(errorPath(report, e) ?? e.file, e.line, e.column)}</code>: ${e.message}</li>`)}</ul></section>`;
}

function verdict(v: NonNullable<HtmlOptions["verdict"]>): SafeHtml {
  return html`<section aria-labelledby="verdict-title"><h2 id="verdict-title">${v.failed ? html`<span class="sev sev-error"><span aria-hidden="true">✖ </span>Failed</span>` : html`<span class="sev sev-ok"><span aria-hidden="true">✔ </span>Passed</span>`} ${v.line}</h2>
${v.notes.length ? html`<ul>${v.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ""}</section>`;
}
