// The estate overview: how many zones are ready, blocked, migrated or unknown, and one table row per zone
// (per zone, root and workspace in an estate report) with its status, plan tier, root and what blocks it;
// a status filter and a search by zone name or id (the page script applies them).
import type { Report } from "../../core/model.js";
import { html, type SafeHtml } from "./template.js";
import { plural, statusBadge } from "./parts.js";
import { instanceLabel, STATUS_LABEL, STATUSES, type MigratedEntry, type ZoneView } from "./status.js";

/** What the search matches: the zone's name and id (lower case, as the script compares). */
export function searchKey(v: ZoneView): string {
  return `${v.zone.zoneName ?? ""} ${v.zone.zoneId}`.toLowerCase();
}

export function rootLabel(report: Report, v: ZoneView): string {
  return instanceLabel({ root: v.zone.root ?? report.root ?? ".", workspace: v.zone.workspace });
}

export function renderOverview(report: Report, views: ZoneView[], migrated: MigratedEntry[]): SafeHtml {
  const count = (s: string) => views.filter((v) => v.status === s).length + (s === "migrated" ? migrated.length : 0);
  const total = views.length + migrated.length;
  const rows = views.map(
    (v) => html`<tr data-zone-status="${v.status}" data-zone-search="${searchKey(v)}">
<td>${statusBadge(v.status, v.detail)}</td>
<td><a href="#${v.anchor}">${v.zone.zoneName ?? v.zone.zoneId}</a>${v.zone.zoneName ? html`<br><code>${v.zone.zoneId}</code>` : ""}</td>
<td>${v.zone.plan}</td>
<td><code>${rootLabel(report, v)}</code></td>
<td>${v.reasons.length ? html`<ul>${v.reasons.map((r) => html`<li>${r}</li>`)}</ul>` : html`<span class="muted">nothing</span>`}</td>
</tr>`,
  );
  for (const m of migrated) {
    rows.push(html`<tr data-zone-status="migrated" data-zone-search="${m.zoneId.toLowerCase()}">
<td>${statusBadge("migrated")}</td><td><code>${m.zoneId}</code></td><td><span class="muted">not in this report</span></td>
<td><code>${instanceLabel(m)}</code></td><td>nothing: the managed ruleset is in place and no previous-WAF resource is left</td></tr>`);
  }
  return html`<section aria-labelledby="overview-title">
<h2 id="overview-title">Estate overview</h2>
<ul class="counts" aria-label="Zones by status">
${STATUSES.map((s) => html`<li>${statusBadge(s)}<strong>${count(s)}</strong></li>`)}
<li><span class="muted">All zones</span><strong>${total}</strong></li>
</ul>
<div class="controls" role="search">
<label for="status-filter">Status
<select id="status-filter">
<option value="all">All statuses</option>
${STATUSES.map((s) => html`<option value="${s}">${STATUS_LABEL[s].text} (${count(s)})</option>`)}
</select></label>
<label for="zone-search">Zone name or id
<input id="zone-search" type="search" autocomplete="off" spellcheck="false"></label>
<button type="button" id="expand-all" aria-pressed="false">Expand all zones</button>
<span id="zones-shown" class="muted" role="status" aria-live="polite">${plural(total, "zone")} shown</span>
</div>
<div class="table-wrap"><table id="zone-table">
<caption class="muted">One row per zone${views.some((v) => v.zone.root !== undefined) ? ", root and workspace" : ""}; the zone's link opens its before and after.</caption>
<thead><tr><th scope="col">Status</th><th scope="col">Zone</th><th scope="col">Plan tier</th><th scope="col">Root</th><th scope="col">What blocks it / to review</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
</section>`;
}
