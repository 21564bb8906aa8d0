// One zone: the previous WAF as configured (package sensitivity and action, group and rule modes, URI
// overrides, bypassing firewall rules, Page Rules, the zone switch) beside the new ruleset rule by rule;
// then the findings, the settings not known offline, the import and the state removals. Every item names
// its file and line.
import { CLOUDFLARE_MANAGED_RULESET_ID, LEGACY_PACKAGE_DEFAULTS, OWASP_ANOMALY_SCORE_RULE_ID, OWASP_CORE_RULESET_ID } from "../../core/mappings.js";
import type { Report, RulesetRule, ZoneLegacy, ZoneReport } from "../../core/model.js";
import { html, type SafeHtml } from "./template.js";
import { code, location, plural, severityBadge, statusBadge, table } from "./parts.js";
import { instanceLabel, type ZoneView } from "./status.js";
import { rootLabel, searchKey } from "./overview.js";

/** Zones start open in a small report; in a large one they open from the overview's links. */
export const OPEN_ZONES_UP_TO = 25;

export function renderZone(report: Report, v: ZoneView, open: boolean): SafeHtml {
  const z = v.zone;
  return html`<section class="zone" id="${v.anchor}" data-zone-status="${v.status}" data-zone-search="${searchKey(v)}" aria-labelledby="${v.anchor}-title">
<details${open ? html` open` : ""}>
<summary><h3 id="${v.anchor}-title">${z.zoneName ? html`${z.zoneName} <code>${z.zoneId}</code>` : html`<code>${z.zoneId}</code>`}</h3>
· ${statusBadge(v.status)} · plan ${z.plan} · ${z.migrationMode} mode · root <code>${rootLabel(report, v)}</code></summary>
<div class="zone-body">
${v.reasons.length ? html`<p>${v.status === "blocked" ? "Blocked by:" : v.status === "unknown" ? "Unknown:" : "To review:"}</p><ul>${v.reasons.map((r) => html`<li>${r}</li>`)}</ul>` : ""}
<div class="compare">
<div><h4>Before: the previous WAF as configured</h4>${before(report, z)}</div>
<div><h4>After: the new managed ruleset “${z.ruleset.name}”</h4>${z.rulesetIn ? html`<p>This zone's one entry point ruleset, with the skip rules of every root, is generated in root <code>${instanceLabel(z.rulesetIn.root, z.rulesetIn.workspace)}</code>.</p>` : after(z)}</div>
</div>
${findingsTable(report, v)}
${unresolvedTable(report, z)}
<h4>Import</h4>
${z.imports.length ? table("The generated ruleset is imported, not created: the entry point exists once the zone is migrated.", ["Resource", "Import id"], z.imports.map((i) => html`<tr><td><code class="addr">${i.to}</code></td><td><code class="addr">${i.id}</code></td></tr>`)) : html`<p class="muted">No import.</p>`}
<h4>State removals (${z.stateRemovals.length})</h4>
${z.stateRemovals.length ? html`<ul>${z.stateRemovals.map((a) => html`<li><code class="addr">${a}</code></li>`)}</ul>` : html`<p class="muted">Nothing to remove from state.</p>`}
</div>
</details>
</section>`;
}

// ---- Before --------------------------------------------------------------------------------------------

function before(report: Report, z: ZoneReport): SafeHtml {
  const l = z.legacy;
  if (!l) return html`<p class="muted">This report does not carry the previous WAF's settings (written by an older version): see the findings below.</p>`;
  const unknown = (address: string, attribute: string) => z.unresolved?.find((u) => u.address === address && u.attribute === attribute);
  const value = (address: string, attribute: string, v: string | null, unset: string): SafeHtml => {
    if (v !== null) return html`<code>${v}</code>`;
    const u = unknown(address, attribute);
    return u ? html`<span class="sev sev-warning">not known offline</span> <code>${u.expression}</code>` : html`<span class="muted">${unset}</span>`;
  };
  const parts: SafeHtml[] = [];
  if (l.packages.length) {
    parts.push(
      table("Core rule set (OWASP) and other packages", ["Package", "Sensitivity", "Action"], l.packages.map((p) => html`<tr>
<td>${item(report, p)}<br><span class="muted">${p.kind === "owasp" ? "OWASP core rule set" : p.kind === "cloudflare" ? "Cloudflare managed rules" : "package kind not known offline"}</span></td>
<td>${value(p.address, "sensitivity", p.sensitivity, `not set (provider default ${LEGACY_PACKAGE_DEFAULTS.sensitivity})`)}</td>
<td>${value(p.address, "action_mode", p.actionMode, `not set (provider default ${LEGACY_PACKAGE_DEFAULTS.actionMode})`)}</td>
</tr>`)),
    );
  }
  if (l.groups.length) {
    parts.push(
      table("Rule groups", ["Group", "Mode"], l.groups.map((g) => html`<tr>
<td>${item(report, g)}<br><span class="muted">id ${g.groupId ?? "not known offline"} · ${kindText(g.kind)}</span></td>
<td>${value(g.address, "mode", g.mode, "not set")}</td></tr>`)),
    );
  }
  if (l.rules.length) {
    parts.push(
      table("Rules", ["Rule", "Mode"], l.rules.map((r) => html`<tr>
<td>${item(report, r)}<br><span class="muted">id ${r.ruleId ?? "not known offline"}${r.groupId ? ` in group ${r.groupId}` : ""} · ${kindText(r.kind)}</span></td>
<td>${value(r.address, "mode", r.mode, "not set")}</td></tr>`)),
    );
  }
  if (l.overrides.length) {
    parts.push(
      table("URI-based WAF overrides (the zone cannot migrate while they exist)", ["Override", "URLs"], l.overrides.map((o) => html`<tr>
<td>${item(report, o)}${o.description ? html`<br>${o.description}` : ""}${o.paused ? html`<br><span class="muted">paused</span>` : ""}</td>
<td>${o.urls.length ? html`<ul>${o.urls.map((u) => html`<li><code>${u}</code></li>`)}</ul>` : html`<span class="muted">not known offline</span>`}</td>
</tr>`)),
    );
  }
  if (l.firewallRules.length) {
    parts.push(
      table("Firewall rules that bypass the WAF", ["Rule", "Expression"], l.firewallRules.map((f) => html`<tr>
<td>${item(report, f)}${f.description ? html`<br>${f.description}` : ""}<br><span class="muted">${f.action ?? "action not known offline"}${f.products.length ? ` ${f.products.join(", ")}` : ""}${f.paused ? " · paused" : ""}</span></td>
<td>${value(f.address, "expression", f.expression, "filter not known")}</td></tr>`)),
    );
  }
  if (l.pageRules.length) {
    parts.push(
      table("Page Rules that disable security or set WAF", ["Page Rule", "Target"], l.pageRules.map((p) => html`<tr>
<td>${item(report, p)}<br><span class="muted">${[p.disableSecurity ? "Disable Security" : null, p.waf ? `WAF ${p.waf}` : null, p.status ? `status ${p.status}` : null].filter(Boolean).join(" · ") || "settings not known offline"}</span></td>
<td>${value(p.address, "target", p.target, "not known")}</td></tr>`)),
    );
  }
  if (l.zoneWafSettings.length) {
    parts.push(
      table("Zone-wide WAF switch", ["Setting", "Value"], l.zoneWafSettings.map((s) => html`<tr>
<td>${item(report, s)}</td><td>${s.value !== null ? html`<code>waf = ${s.value}</code>` : html`<span class="sev sev-warning">not known offline</span> ${code(s.expression)}`}</td></tr>`)),
    );
  }
  return parts.length ? html`${parts}` : html`<p class="muted">No previous-WAF resource in this zone.</p>`;
}

/** The item's address and, under it, its file:line. */
function item(report: Report, x: { address: string; file: string | null; line: number | null }): SafeHtml {
  return html`<code class="addr">${x.address}</code><br>${location(report, x.file, x.line)}`;
}

function kindText(kind: ZoneLegacy["groups"][number]["kind"]): string {
  return kind === "owasp" ? "OWASP core rule set" : kind === "cloudflare" ? "Cloudflare managed rules" : "package: not known offline";
}

// ---- After ---------------------------------------------------------------------------------------------

const RULESET_NAMES: Record<string, string> = {
  [CLOUDFLARE_MANAGED_RULESET_ID]: "Cloudflare Managed Ruleset",
  [OWASP_CORE_RULESET_ID]: "Cloudflare OWASP Core Ruleset",
};

function after(z: ZoneReport): SafeHtml {
  if (!z.ruleset.rules.length) return html`<p class="muted">No rules.</p>`;
  return table(
    "Skip rules run first, then the managed rulesets they skip.",
    ["#", "Rule and its settings"],
    z.ruleset.rules.map((r, i) => html`<tr>
<td>${i + 1}</td>
<td><strong>${r.action}</strong> ${r.enabled ? "" : html`<span class="sev sev-warning">(disabled)</span>`} ${r.description}<br>${code(r.expression)}
<div class="settings">${r.action === "execute" ? executeSettings(r) : r.action === "skip" ? skipSettings(r) : ""}</div></td>
</tr>`),
  );
}

function skipSettings(r: RulesetRule): SafeHtml {
  const what = r.action_parameters?.ruleset === "current" ? "skips the rest of this ruleset" : "skips";
  return html`${what}${r.logging?.enabled ? html`<br>logging on` : ""}`;
}

/**
 * Paranoia level as the generated ruleset expresses it: PLn disables the categories paranoia-level-(n+1)…4,
 * so it is one below the lowest disabled level. Without such an override the ruleset's own default applies.
 */
export function paranoiaLevel(r: RulesetRule): number | null {
  const disabled = (r.action_parameters?.overrides?.categories ?? [])
    .filter((c) => c.enabled === false)
    .map((c) => /^paranoia-level-(\d)$/.exec(c.category)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  return disabled.length ? Math.min(...disabled) - 1 : null;
}

function executeSettings(r: RulesetRule): SafeHtml {
  const id = r.action_parameters?.id ?? "";
  const ov = r.action_parameters?.overrides;
  const score = ov?.rules?.find((o) => o.id === OWASP_ANOMALY_SCORE_RULE_ID);
  const others = [
    ...(ov?.categories ?? []).filter((c) => !/^paranoia-level-\d$/.test(c.category)).map((c) => `category ${c.category}: ${overrideText(c)}`),
    ...(ov?.rules ?? []).filter((o) => o.id !== OWASP_ANOMALY_SCORE_RULE_ID).map((o) => `rule ${o.id}: ${overrideText(o)}`),
    ...(ov?.action ? [`every rule: action ${ov.action}`] : []),
    ...(ov?.enabled !== undefined ? [`every rule: ${ov.enabled ? "enabled" : "disabled"}`] : []),
  ];
  const pl = paranoiaLevel(r);
  const lines: SafeHtml[] = [html`executes ${RULESET_NAMES[id] ?? "ruleset"} ${code(id)}`];
  if (id === OWASP_CORE_RULESET_ID) {
    lines.push(html`paranoia level: ${pl === null ? html`<span class="muted">ruleset default</span>` : html`<strong>PL${pl}</strong>`}`);
    lines.push(html`score threshold: ${score?.score_threshold !== undefined ? html`<strong>${score.score_threshold}</strong>` : html`<span class="muted">ruleset default</span>`}`);
    lines.push(html`action: ${score?.action ? html`<strong>${score.action}</strong>` : html`<span class="muted">ruleset default</span>`}`);
  }
  if (others.length) lines.push(html`overrides: <ul>${others.map((o) => html`<li>${o}</li>`)}</ul>`);
  else if (id !== OWASP_CORE_RULESET_ID) lines.push(html`<span class="muted">no overrides</span>`);
  return html`${lines.map((l, i) => html`${i ? html`<br>` : ""}${l}`)}`;
}

function overrideText(o: { action?: string; enabled?: boolean; score_threshold?: number }): string {
  const parts = [o.enabled === undefined ? null : o.enabled ? "enabled" : "disabled", o.action ? `action ${o.action}` : null, o.score_threshold !== undefined ? `score ${o.score_threshold}` : null];
  return parts.filter(Boolean).join(", ") || "as the ruleset sets it";
}

// ---- Findings, unknowns --------------------------------------------------------------------------------

function findingsTable(report: Report, v: ZoneView): SafeHtml {
  if (!v.findings.length) return html`<h4>Findings</h4><p class="muted">None.</p>`;
  return html`<h4>Findings (${v.findings.length})</h4>${table(plural(v.findings.length, "finding"), ["Severity", "Finding", "Where"], v.findings.map((f) => html`<tr>
<td>${severityBadge(f.severity)}</td><td><code>${f.code}</code><br>${f.message}</td><td>${location(report, f.file, f.line)}${f.address ? html`<br><code class="addr">${f.address}</code>` : ""}</td></tr>`))}`;
}

function unresolvedTable(report: Report, z: ZoneReport): SafeHtml {
  if (!z.unresolved?.length) return html``;
  return html`<h4>Not known offline (${z.unresolved.length})</h4>
<p>The generated ruleset holds a TODO for each: supply the values (<code>--var-file</code>, <code>--var</code>, <code>--state</code>) and run again.</p>
${table("Settings whose value could not be evaluated", ["Setting", "Expression", "Why", "Where"], z.unresolved.map((u) => html`<tr>
<td><code class="addr">${u.address}</code> <code>${u.attribute}</code></td><td>${code(u.expression)}</td><td>${u.reason}</td><td>${location(report, u.file, u.line)}</td></tr>`))}`;
}
