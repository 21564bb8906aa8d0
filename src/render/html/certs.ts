// The certificates of `certs`: the Let's Encrypt chain change as a timeline with the as-of day marked,
// then each certificate with its urgency (icon + word), deadline and what to do, and the --fix outcome.
import type { Urgency } from "../../core/certs.js";
import type { Finding, Report } from "../../core/model.js";
import { byText, KIND_LABEL, SERVICE_DOES, type CertsReport, type CertsSection } from "../certs-text.js";
import { html, type SafeHtml } from "./template.js";
import { code, location, severityBadge, table } from "./parts.js";
import { copyableCommand } from "./plan.js";

const URGENCY: Record<Urgency | "info", { icon: string; text: string; cls: string }> = {
  overdue: { icon: "✖", text: "Overdue", cls: "sev-error" },
  soon: { icon: "▲", text: "Due within 30 days", cls: "sev-warning" },
  later: { icon: "◷", text: "Later", cls: "sev-info" },
  none: { icon: "✔", text: "No deadline", cls: "sev-ok" },
  info: { icon: "ℹ", text: "No deadline", cls: "sev-info" },
};

interface CertDetails {
  urgency?: Urgency;
  deadline?: string | null;
  action?: string;
}

export function renderCerts(report: Report): SafeHtml {
  const certs = (report as CertsReport).certs;
  if (!certs) return html``;
  return html`<section aria-labelledby="certs-title">
<h2 id="certs-title">Certificates as of ${certs.asOf}</h2>
${timelineList(certs)}
${certificateTable(report, certs)}
${fixSection(report, certs)}
</section>`;
}

function timelineList(certs: CertsSection): SafeHtml {
  const items: SafeHtml[] = [];
  const today = html`<li class="now"><span aria-hidden="true">▶ </span>${certs.asOf} · as of (today in this report)</li>`;
  let todayShown = certs.timeline.some((e) => e.status === "current");
  for (const e of certs.timeline) {
    if (!todayShown && e.status === "future") {
      items.push(today);
      todayShown = true;
    }
    const mark = e.status === "past" ? "✓ past" : e.status === "current" ? "▶ now" : "○ ahead";
    items.push(html`<li${e.status === "current" ? html` class="now"` : ""}><span class="muted">${mark}</span> · <strong>${e.date}</strong> (${e.relative}) · ${e.change}</li>`);
  }
  if (!todayShown) items.push(today);
  return html`<h3>Timeline of the Let's Encrypt chain change</h3><ol class="timeline">${items}</ol>`;
}

function urgencyOf(f: Finding | undefined): SafeHtml {
  const d = (f?.details ?? {}) as CertDetails;
  const u = f ? URGENCY[d.urgency ?? "info"] : URGENCY.none;
  return html`<span class="sev ${u.cls}"><span aria-hidden="true">${u.icon} </span>${f ? u.text : "No action"}</span>`;
}

function certificateTable(report: Report, certs: CertsSection): SafeHtml {
  const byAddress = new Map<string, Finding[]>();
  for (const f of report.findings) {
    if (!f.address) continue;
    const list = byAddress.get(f.address);
    if (list) list.push(f);
    else byAddress.set(f.address, [f]);
  }
  const rows = certs.certificates.map((c) => {
    const found = byAddress.get(c.address) ?? [];
    const first = found[0];
    const d = (first?.details ?? {}) as CertDetails;
    const by = d.deadline ? `${d.deadline} (${byText(certs.asOf, d.deadline)})` : "—";
    return html`<tr>
<td><code class="addr">${c.address}</code><br>${location(report, c.file, c.line)}<br><span class="muted">${KIND_LABEL[c.kind]}${c.zone ? ` · zone ${c.zone}` : ""}</span></td>
<td>${c.certificateAuthority ? code(c.certificateAuthority) : html`<span class="muted">not set or not known offline</span>`}</td>
<td>${urgencyOf(first)}</td><td>${by}</td>
<td>${found.length ? found.map((f) => html`<p>${severityBadge(f.severity)} <code>${f.code}</code>: ${SERVICE_DOES[f.code] ? html`the service ${SERVICE_DOES[f.code]!}. ` : ""}${(f.details as CertDetails | undefined)?.action ?? f.message}</p>`) : html`<span class="muted">another CA, or nothing the chain change affects</span>`}</td>
</tr>`;
  });
  const listed = new Set(certs.certificates.map((c) => c.address));
  const other = report.findings.filter((f) => !f.address || !listed.has(f.address));
  return html`<h3>Certificates (${certs.certificates.length})</h3>
${certs.certificates.length ? table("Each certificate the audit read, with its urgency", ["Certificate", "CA", "Urgency", "By", "What to do"], rows) : html`<p class="muted">No certificate resources found.</p>`}
${other.length ? html`<h3>Other findings (${other.length})</h3>${table("Findings not tied to one listed certificate", ["Severity", "Finding", "Where"], other.map((f) => html`<tr><td>${severityBadge(f.severity)}</td><td><code>${f.code}</code><br>${f.message}</td><td>${location(report, f.file, f.line)}</td></tr>`))}` : ""}`;
}

function fixSection(report: Report, certs: CertsSection): SafeHtml {
  const fix = certs.fix;
  if (!fix) return html``;
  return html`<h3>Fix: certificate_authority to ${fix.target}</h3>
${fix.patchFile ? html`<p>Patch written: <code>${fix.patchFile}</code>.</p>${fix.applyCommand ? copyableCommand("cert-fix-apply", fix.applyCommand) : ""}` : html`<p class="muted">No patch written.</p>`}
${fix.edits.length ? table("Edits", ["Certificate", "Change", "Outcome", "Where"], fix.edits.map((e, i) => html`<tr>
<td>${code(e.address)}</td><td>${e.to === null ? html`delete <code>${e.attribute} = "${e.from}"</code>` : html`<code>${e.attribute}</code> ${code(e.from)} → ${code(e.to)}`}</td>
<td>${e.status === "patched" ? (e.forcesReplacement ? "patched, forces a replacement (-/+)" : "patched, in place") : e.status}${e.reason ? html`<br>${e.reason}` : ""}<br><span class="muted">${e.note}</span>${e.commands.map((c, j) => copyableCommand(`cert-fix-${i + 1}-${j + 1}`, c))}</td>
<td>${location(report, e.file, e.line)}</td></tr>`)) : ""}`;
}
