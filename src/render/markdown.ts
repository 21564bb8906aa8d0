// GitHub-flavoured Markdown for a pull-request comment: a heading with the counts and a summary of what
// needs action, the input errors and the findings of no zone, then (collapsed) the plan's steps and each
// zone with a table of its findings, the generated ruleset, the import and the state removals. Stays under
// GitHub's comment limit whatever the estate (core/markdown-budget.ts). Deterministic.
import type { Finding, InputError, PlanStep, Report, RulesetRule, Severity, ZoneReport } from "../core/model.js";
import { details, fitSections, MARKDOWN_MAX_CHARS, type BudgetSection } from "../core/markdown-budget.js";
import { errorPath, reportPath, withLine } from "../core/report-paths.js";
import { findingsByZone, instanceLabel, isEstate, otherFindingInstance, zoneKey } from "./instances.js";
import { estateSummary, STATUS_LABEL, summarySentence } from "../estate/summary.js";
import { blocksInstanceZones, zoneEntries, zoneStatus } from "../estate/zone-status.js";
import { removalCountText } from "../core/removal-count.js";

export interface MarkdownOptions {
  /** Title of the report (the command that produced it). */
  title?: string;
  /** Upper bound on the length of the text (default {@link MARKDOWN_MAX_CHARS}, under GitHub's comment limit). */
  maxChars?: number;
}

/**
 * Summary first (counts, the findings by code, one line per zone that needs action and what blocks it),
 * then the unreadable input and the findings of no zone, then the plan and each zone's details in
 * collapsible sections. Whatever the estate, the text stays under `maxChars`: each part is cut, whole items
 * at a time, with a line that says how many more there are and where to find them.
 */
export function renderMarkdown(report: Report, opts: MarkdownOptions = {}): string {
  const fixed: string[] = [];
  fixed.push(heading(report, opts.title ?? "scan"));
  fixed.push("");
  const inConfig = report.resources.filter((r) => r.inConfig).length;
  const inState = report.resources.filter((r) => r.inState).length;
  fixed.push(
    `${plural(report.resources.length, "resource")} (${inConfig} in config, ${inState} in state)` +
      (report.root && report.root !== "." ? ` under ${codeSpan(report.root)}` : ""),
  );

  const { byZone, other } = findingsByZone(report);
  const estate = isEstate(report);
  const verdicts = zoneEntries(report).map((e) => zoneVerdict(e.zone, e.findings, e.instanceErrors, estate));
  if (report.zones.length) {
    const n = (k: ZoneVerdict["kind"]) => verdicts.filter((v) => v.kind === k).length;
    fixed.push("", `**Zones:** ${n("blocked")} blocked · ${n("act")} to act on · ${n("ready")} ready`);
  }

  const sections: BudgetSection[] = [];
  const add = (s: BudgetSection | null) => s && sections.push(s);
  if (estate) {
    // Many roots: one line per zone entry before everything else.
    const lines = estateSummary(report);
    add({ open: ["", `### Estate summary (${plural(report.roots!.length, "root/workspace instance")}, ${lines.length} zone entr${lines.length === 1 ? "y" : "ies"})`, ""], items: lines.map((l) => [`- **${STATUS_LABEL[l.status]}** ${summarySentence(l, (t) => codeSpan(t))}`]), close: [], noun: "zone entries", priority: 0, maxShare: 0.4 });
  }
  add(codeCounts(report.findings));
  const needAction = verdicts.filter((v) => v.kind !== "ready").sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "blocked" ? -1 : 1));
  if (needAction.length) {
    add({ open: ["", `### Zones that need action (${needAction.length})`, ""], items: needAction.map((v) => [v.line]), close: [], noun: "zones", priority: 1, maxShare: 0.4 });
  }
  if (report.errors.length) {
    add({
      open: ["", `### Input that could not be read (${report.errors.length})`, "", "| Location | Message |", "| --- | --- |"],
      items: report.errors.map((e) => [`| ${codeSpan(errorLocation(report, e), true)} | ${cell(e.message)} |`]),
      close: [],
      noun: "unreadable inputs",
      priority: 2,
      maxShare: 0.15,
    });
  }
  if (other.length) {
    const [header, delim, ...rows] = findingsTable(report, other, true);
    add({ open: ["", `### Other findings (${other.length})`, "", header!, delim!], items: rows.map((r) => [r]), close: [], noun: "findings", priority: 3, maxShare: 0.25 });
  }
  if (report.plan && report.plan.steps.length) {
    const d = details(`Plan (${plural(report.plan.steps.length, "step")})`);
    add({ ...d, items: report.plan.steps.map((step) => ["", ...planStep(step, estate)]), noun: "steps", priority: 4 });
  }
  if (report.zones.length) {
    const d = details(`Zone details (${plural(report.zones.length, "zone")})`);
    add({ ...d, items: report.zones.map((z) => ["", ...zoneSection(report, z, byZone.get(zoneKey(z.zoneId, z)) ?? [], estate)]), noun: "zones", priority: 5 });
  }

  const tail: string[] = [];
  if (report.zones.length === 0 && report.findings.length === 0 && report.errors.length === 0) {
    tail.push("", "No previous-WAF resources or WAF-related settings found.");
  }
  const out = [...fixed, ...fitSections(sections, opts.maxChars ?? MARKDOWN_MAX_CHARS, [...fixed, ...tail]).flat(), ...tail];
  return out.join("\n") + "\n";
}

interface ZoneVerdict {
  kind: "blocked" | "act" | "ready";
  /** The zone's line in "Zones that need action". */
  line: string;
}

/**
 * Blocked as the shared rule says (estate/zone-status.ts: an error of the zone or of its instance as a whole,
 * or not compatible); to act on: warnings; ready: nothing but information. The line names the codes, counted.
 */
function zoneVerdict(z: ZoneReport, findings: Finding[], instanceErrors: Finding[], estate: boolean): ZoneVerdict {
  const warnings = codeList(findings.filter((f) => f.severity === "warning"));
  const blocked = zoneStatus(z, findings, instanceErrors).status === "blocked";
  const blockers = blocked ? codeList([...findings.filter((f) => f.severity === "error"), ...instanceErrors.filter(blocksInstanceZones)]) : [];
  if (blocked && !z.compatible && !findings.some((f) => f.code === "URI_WAF_OVERRIDE")) blockers.push("not compatible (URI-based WAF override)");
  const kind = blocked ? "blocked" : warnings.length ? "act" : "ready";
  const parts = [
    ...(blockers.length ? [`**blocked by** ${blockers.join(", ")}`] : []),
    ...(warnings.length ? [`to act on: ${warnings.join(", ")}`] : []),
  ];
  return { kind, line: `- ${codeSpan(z.zoneId)}${z.zoneName ? ` (${inline(z.zoneName)})` : ""}${estate ? ` in ${codeSpan(instanceLabel(z))}` : ""}: ${parts.join("; ")}` };
}

/** `CODE` or `CODE ×n`, in order of first appearance. */
function codeList(findings: Finding[]): string[] {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  return [...counts].map(([c, n]) => `${codeSpan(c)}${n > 1 ? ` ×${n}` : ""}`);
}

/** The findings counted by code, most severe first: the whole estate at a glance. */
function codeCounts(findings: Finding[]): BudgetSection | null {
  if (!findings.length) return null;
  const counts = new Map<string, { severity: Severity; n: number }>();
  for (const f of findings) {
    const c = counts.get(f.code);
    if (c) c.n++;
    else counts.set(f.code, { severity: f.severity, n: 1 });
  }
  const rank = (s: Severity) => (s === "error" ? 0 : s === "warning" ? 1 : 2);
  const rows = [...counts].sort(([a, x], [b, y]) => rank(x.severity) - rank(y.severity) || (a < b ? -1 : a > b ? 1 : 0));
  return {
    open: ["", "| Code | Severity | Count |", "| --- | --- | ---: |"],
    items: rows.map(([code, c]) => [`| ${codeSpan(code, true)} | ${severityLabel(c.severity)} | ${c.n} |`]),
    close: [],
    noun: "finding codes",
    priority: 0,
  };
}

function heading(report: Report, title: string): string {
  const count = (s: Severity) => report.findings.filter((f) => f.severity === s).length;
  const parts = [
    plural(report.zones.length, "zone"),
    plural(count("error"), "error"),
    plural(count("warning"), "warning"),
    `${count("info")} info`,
  ];
  if (report.errors.length) parts.push(plural(report.errors.length, "unreadable input"));
  return `## cf-waf-migrate ${inline(title)}: ${parts.join(" · ")}`;
}

function zoneSection(report: Report, z: ZoneReport, findings: Finding[], estate: boolean): string[] {
  const out: string[] = [];
  out.push(`### Zone ${codeSpan(z.zoneId)}${z.zoneName ? ` (${inline(z.zoneName)})` : ""}${estate ? ` in ${codeSpan(instanceLabel(z))}` : ""}`);
  out.push("");
  const compat = z.compatible ? "compatible" : "**not compatible** (URI-based WAF override)";
  out.push(`Plan ${codeSpan(z.plan)} · ${compat} · migration mode ${codeSpan(z.migrationMode)}`);
  if (z.phase1.reasons.length) {
    out.push("");
    out.push(`Phase 1 would not have admitted it: ${z.phase1.reasons.map((r) => inline(r)).join("; ")}`);
  }

  out.push("");
  if (findings.length) out.push(...findingsTable(report, findings, false));
  else out.push("No findings.");

  if (z.rulesetIn) {
    // The zone's one ruleset is planned in another root (ZONE_SPLIT_ACROSS_ROOTS).
    out.push("", `#### Generated ruleset`, "", `Planned in ${codeSpan(instanceLabel(z.rulesetIn))}, with this root's skip rules.`);
  } else {
    out.push("", `#### Generated ruleset ${codeSpan(z.ruleset.name)} (${plural(z.ruleset.rules.length, "rule")})`, "");
    if (z.ruleset.rules.length) {
      out.push("| # | Action | Expression | Description | Details |", "| ---: | --- | --- | --- | --- |");
      z.ruleset.rules.forEach((r, i) => {
        out.push(`| ${i + 1} | ${codeSpan(r.action, true)} | ${codeSpan(r.expression, true)} | ${cell(r.description)} | ${cell(ruleDetails(r))} |`);
      });
    } else {
      out.push("No rules.");
    }
  }

  if (z.imports.length) {
    out.push("", "#### Import", "");
    out.push(...fenced("hcl", z.imports.map((i) => `import {\n  to = ${i.to}\n  id = ${hclString(i.id)}\n}`).join("\n\n")));
  }
  if (z.stateRemovals.length) {
    out.push("", `#### Remove from state (${removalCountText(z.stateRemovals)})`, "");
    out.push(...fenced("text", z.stateRemovals.join("\n")));
  }
  return out;
}

function findingsTable(report: Report, findings: Finding[], withZone: boolean): string[] {
  const out: string[] = [];
  out.push(withZone ? "| Severity | Code | Zone | Location | Message |" : "| Severity | Code | Location | Message |");
  out.push(withZone ? "| --- | --- | --- | --- | --- |" : "| --- | --- | --- | --- |");
  for (const f of findings) {
    const at = f.file ? codeSpan(withLine(reportPath(report, f.file), f.line), true) : f.address ? codeSpan(f.address, true) : "";
    // The table of findings outside every zone: in an estate, which root and workspace each comes from.
    const instance = withZone ? otherFindingInstance(report, f) : "";
    const where = instance ? `${at}${cell(instance)}` : at;
    const zone = f.zoneId ? codeSpan(f.zoneId, true) : "";
    const cells = [severityLabel(f.severity), codeSpan(f.code, true), ...(withZone ? [zone] : []), where, cell(f.message)];
    out.push(`| ${cells.join(" | ")} |`);
  }
  return out;
}

function severityLabel(s: Severity): string {
  return s === "error" ? "**error**" : s;
}

function ruleDetails(r: RulesetRule): string {
  const parts: string[] = [];
  if (!r.enabled) parts.push("disabled");
  const ap = r.action_parameters;
  if (ap?.ruleset) parts.push(ap.ruleset === "current" ? "skips the rest of this ruleset" : `skips ruleset ${ap.ruleset}`);
  if (ap?.id) parts.push(`ruleset ${ap.id}`);
  const ov = ap?.overrides;
  if (ov) {
    const cats = (ov.categories ?? []).filter((c) => c.enabled === false).map((c) => c.category);
    if (cats.length) parts.push(`off: ${cats.join(", ")}`);
    for (const c of ov.categories ?? []) {
      if (c.enabled !== false || c.action) parts.push(`category ${c.category}${c.action ? ` → ${c.action}` : ""}${c.enabled === true ? " on" : ""}`);
    }
    for (const o of ov.rules ?? []) {
      const bits = [
        o.score_threshold !== undefined ? `score ${o.score_threshold}` : "",
        o.action ? `action ${o.action}` : "",
        o.enabled !== undefined ? (o.enabled ? "on" : "off") : "",
      ].filter(Boolean);
      parts.push(`rule ${o.id}${bits.length ? `: ${bits.join(", ")}` : ""}`);
    }
    if (ov.action) parts.push(`all rules → ${ov.action}`);
    if (ov.enabled !== undefined) parts.push(ov.enabled ? "all rules on" : "all rules off");
  }
  if (r.logging) parts.push(r.logging.enabled ? "logging on" : "logging off");
  return parts.join("; ");
}

function planStep(step: PlanStep, estate: boolean): string[] {
  const marker = `${step.number}. `;
  const pad = " ".repeat(marker.length);
  const out = [`${marker}${estate && step.root !== undefined ? `${codeSpan(instanceLabel(step))}: ` : ""}${inline(step.title)}`];
  for (const n of step.notes ?? []) out.push("", `${pad}${inline(n)}`);
  if (step.commands.length) {
    out.push("");
    for (const line of fenced("sh", step.commands.join("\n"))) out.push(line === "" ? "" : pad + line);
  }
  return out;
}

function errorLocation(report: Report, e: InputError): string {
  return withLine(errorPath(report, e) ?? e.file, e.line, e.column);
}

// ---- Escaping ---------------------------------------------------------------------------------------

/**
 * Text for a table cell: inline-escaped, `|` escaped, newlines as `<br>`. Code spans the text already
 * has (`` `cmd` ``) are kept as code (only their pipes escaped, newlines turned into spaces).
 */
export function cell(text: string): string {
  return inline(text, true);
}

/**
 * Inline text outside a table (or inside one with `inTable`): Markdown and HTML metacharacters escaped so
 * `<RULESET_ID>`, `*` wildcards and `[…]` addresses print as written; backtick code spans kept.
 */
export function inline(text: string, inTable = false): string {
  const src = visible(text).replace(/\r\n?/g, "\n");
  let out = "";
  let i = 0;
  // A list marker at the start would make the text a list item (a plan note `- …`, a title `1. …`).
  const marker = /^(\d{1,9})([.)])(?=\s|$)/.exec(src);
  if (marker) {
    out = `${marker[1]}\\${marker[2]}`;
    i = marker[0].length;
  } else if (/^[-+=](?=\s|$)/.test(src)) {
    out = `\\${src[0]}`;
    i = 1;
  }
  while (i < src.length) {
    if (src[i] === "`") {
      const run = /^`+/.exec(src.slice(i))![0];
      const close = findClosingRun(src, i + run.length, run.length);
      if (close >= 0) {
        const content = src.slice(i + run.length, close).replace(/\n/g, " ");
        out += run + (inTable ? content.replace(/\|/g, "\\|") : content) + run;
        i = close + run.length;
        continue;
      }
      out += "\\`".repeat(run.length);
      i += run.length;
      continue;
    }
    out += escapeChar(src[i]!, src[i - 1] ?? "", src[i + 1] ?? "", inTable);
    i++;
  }
  return out;
}

function findClosingRun(s: string, from: number, len: number): number {
  for (let j = from; j < s.length; j++) {
    if (s[j] !== "`") continue;
    let k = j;
    while (k < s.length && s[k] === "`") k++;
    if (k - j === len) return j;
    j = k - 1;
  }
  return -1;
}

const WORD = /[\p{L}\p{N}]/u;

function escapeChar(c: string, prev: string, next: string, inTable: boolean): string {
  switch (c) {
    case "\n":
      return inTable ? "<br>" : " ";
    case "|":
      return "\\|";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case "&":
      return "&amp;";
    case "_":
      // Intraword underscores never open or close emphasis (`cloudflare_waf_group` stays as written).
      return WORD.test(prev) && WORD.test(next) ? c : "\\_";
    case "[":
      // A footnote (`[^1]`) or a task-list box at the start; without definitions `[…]` alone is no link.
      return next === "^" || prev === "" ? "\\[" : c;
    case "]":
      // `](`, `][` and `]:` would make an inline link, a reference link or a link definition.
      return next === "(" || next === "[" || next === ":" ? "\\]" : c;
    case "\\":
    case "*":
    case "~":
    case "#":
      return "\\" + c;
    default:
      return c;
  }
}

/**
 * `text` as a code span: the fence is one backtick longer than the longest run inside, padded with a
 * space when the text starts or ends with a backtick. In a table cell `|` is escaped (GitHub renders
 * `\|` in a code span in a table as `|`); newlines become spaces.
 */
export function codeSpan(text: string, inTable = false): string {
  let t = visible(text).replace(/\r\n?|\n/g, " ");
  if (inTable) t = t.replace(/\|/g, "\\|");
  if (t === "") return "";
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = t.startsWith("`") || t.endsWith("`") || (/^ .* $/.test(t) && t.trim() !== "") ? " " : "";
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run in the content. */
export function fenced(lang: string, content: string): string[] {
  const longest = Math.max(0, ...(content.match(/`{3,}/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, ...visible(content).replace(/\r\n?/g, "\n").split("\n"), fence];
}

/**
 * Control characters (other than tab, newline, carriage return) and lone surrogates shown as `\uXXXX`
 * text: a terminal escape or a NUL in a message must not reach the comment raw.
 */
export function visible(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const bad = (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) || cp === 0x7f || (cp >= 0xd800 && cp <= 0xdfff);
    out += bad ? `\\u${cp.toString(16).padStart(4, "0")}` : ch;
  }
  return out;
}

/** An HCL quoted string: `\`, `"`, newlines escaped, and `${`/`%{` doubled so they stay literal. */
function hclString(s: string): string {
  const body = s
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    .replace(/\$\{/g, "$${")
    .replace(/%\{/g, "%%{");
  return `"${body}"`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
