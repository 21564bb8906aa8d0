// Small pieces every section uses: file:line locations, severity and status badges (icon + word, never
// colour alone), code spans and counts.
import type { Report, Severity } from "../../core/model.js";
import { reportPath, withLine } from "../../core/report-paths.js";
import { html, type SafeHtml } from "./template.js";
import { DETAIL_LABEL, STATUS_LABEL, type ZoneStatus } from "./status.js";
import type { ZoneEntryStatus } from "../../estate/zone-status.js";

const SEVERITY_LABEL: Record<Severity, { icon: string; text: string }> = {
  error: { icon: "✖", text: "Error" },
  warning: { icon: "▲", text: "Warning" },
  info: { icon: "ℹ", text: "Info" },
};

/** `modules/waf/main.tf:12`, named like every report names files (relative to the working directory). */
export function location(report: Report, file: string | null, line: number | null): SafeHtml {
  if (!file) return html`<span class="loc">state only</span>`;
  return html`<code class="loc">${withLine(reportPath(report, file), line)}</code>`;
}

export function severityBadge(severity: Severity): SafeHtml {
  const l = SEVERITY_LABEL[severity];
  return html`<span class="sev sev-${severity}"><span aria-hidden="true">${l.icon} </span>${l.text}</span>`;
}

/** `detail`: the shared status, worded on its own when it shares its group with plain "ready". */
export function statusBadge(status: ZoneStatus, detail?: ZoneEntryStatus): SafeHtml {
  const l = STATUS_LABEL[status];
  const text = (detail && DETAIL_LABEL[detail]) ?? l.text;
  return html`<span class="status status-${status}"><span aria-hidden="true">${l.icon} </span>${text}</span>`;
}

export function code(text: string | null | undefined): SafeHtml {
  return text === null || text === undefined || text === "" ? html`<span class="muted">none</span>` : html`<code>${text}</code>`;
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function table(caption: string, head: string[], rows: SafeHtml[]): SafeHtml {
  return html`<div class="table-wrap"><table><caption class="muted">${caption}</caption><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}
