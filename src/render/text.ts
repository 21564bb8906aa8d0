// The text report for a person at a terminal: a summary line, then each zone with its findings, the
// generated ruleset in one line per rule, the import and the state removals; then findings that belong to
// no zone, then the input errors.
import type { Finding, InputError, Report, Severity, ZoneReport } from "../core/model.js";
import { errorPath, reportPath, withLine } from "../core/report-paths.js";
import { makeStyle, type Style } from "./style.js";
import { findingsByZone, instanceLabel, isEstate, otherFindingInstance, zoneKey } from "./instances.js";
import { estateSummary, STATUS_LABEL, summarySentence } from "../estate/summary.js";
import { removalCountText } from "../core/removal-count.js";

export interface TextOptions {
  color: boolean;
  /** Title of the report (the command that produced it). */
  title?: string;
}

export function renderText(report: Report, opts: TextOptions): string {
  const st = makeStyle(opts.color);
  const out: string[] = [];
  out.push(summaryLine(report, st, opts.title ?? "scan"));

  const { byZone, other } = findingsByZone(report);
  const estate = isEstate(report);
  // Many roots: the one-line-per-zone summary first, the details after.
  if (estate) out.push(...estateSummaryLines(report, st));

  for (const z of report.zones) {
    out.push("");
    out.push(zoneHeader(z, st, estate));
    if (z.service) out.push(st.dim(serviceLine(z.service)));
    for (const f of byZone.get(zoneKey(z.zoneId, z)) ?? []) out.push(...findingLines(report, f, st));
    out.push(...zoneDetails(z, st));
  }
  if (other.length) {
    out.push("");
    out.push(st.bold("Other findings"));
    for (const f of other) out.push(...findingLines(report, f, st, otherFindingInstance(report, f)));
  }
  if (report.plan) {
    out.push("");
    out.push(st.bold("Plan"));
    for (const step of report.plan.steps) {
      out.push(`  ${estate && step.root !== undefined ? `[${instanceLabel(step)}] ` : ""}${step.number}. ${step.title}`);
      for (const c of step.commands) out.push(`       ${c}`);
      for (const n of step.notes ?? []) out.push(st.dim(`       note: ${n}`));
    }
  }
  if (report.errors.length) {
    out.push("");
    out.push(st.bold(st.severity("error", `Input that could not be read (${report.errors.length})`)));
    for (const e of report.errors) out.push(`  ${errorLocation(report, e)}: ${e.message}`);
  }
  if (report.zones.length === 0 && report.findings.length === 0 && report.errors.length === 0) {
    out.push("");
    out.push(st.ok("No previous-WAF resources or WAF-related settings found."));
  }
  return out.join("\n") + "\n";
}

function estateSummaryLines(report: Report, st: Style): string[] {
  const lines = estateSummary(report);
  const out = ["", st.bold(`Estate summary: ${report.roots!.length} root/workspace instances, ${lines.length} zone entr${lines.length === 1 ? "y" : "ies"}`)];
  for (const l of lines) {
    const label = STATUS_LABEL[l.status].padEnd(12);
    out.push(`  ${l.status === "blocked" ? st.severity("error", label) : l.status === "ready" || l.status === "migrated" ? st.ok(label) : label} ${summarySentence(l)}`);
  }
  return out;
}

function summaryLine(report: Report, st: Style, title: string): string {
  const count = (s: Severity) => report.findings.filter((f) => f.severity === s).length;
  const inConfig = report.resources.filter((r) => r.inConfig).length;
  const inState = report.resources.filter((r) => r.inState).length;
  const parts = [
    `${report.zones.length} zone${report.zones.length === 1 ? "" : "s"}`,
    `${report.resources.length} resource${report.resources.length === 1 ? "" : "s"} (${inConfig} in config, ${inState} in state)`,
    st.severity("error", `${count("error")} error${count("error") === 1 ? "" : "s"}`),
    st.severity("warning", `${count("warning")} warning${count("warning") === 1 ? "" : "s"}`),
    st.severity("info", `${count("info")} info`),
  ];
  if (report.errors.length) parts.push(st.severity("error", `${report.errors.length} unreadable input${report.errors.length === 1 ? "" : "s"}`));
  return st.bold(`cf-waf-migrate ${title}: `) + parts.join(", ");
}

function zoneHeader(z: ZoneReport, st: Style, estate: boolean): string {
  const name = (z.zoneName ? ` (${z.zoneName})` : "") + (estate ? ` in ${instanceLabel(z)}` : "");
  const compat = z.compatible ? st.ok("compatible") : st.severity("error", "NOT compatible");
  return st.bold(`Zone ${z.zoneId}${name}`) + `  plan ${z.plan} · ${compat} · migration mode ${z.migrationMode}`;
}

/** `--online`: what the service said about the zone, and when. */
function serviceLine(s: NonNullable<ZoneReport["service"]>): string {
  if (s.error) return `  service: not asked successfully (${s.error})`;
  const compat = s.compatible === null ? "compatibility unknown" : s.compatible ? "compatible" : "NOT compatible";
  const source = { "service-config": "the service's configuration", entrypoint: "the live entry point", offline: "the offline rules" }[s.rulesetSource];
  const when = s.fetchedAt ? `; answers of ${s.fetchedAt}${s.fromCache ? " (cache)" : ""}` : "";
  return `  service: ${compat}, migration ${s.status}${s.rulesetId ? `, entry point ${s.rulesetId}` : ""}; ruleset from ${source}${when}`;
}

function findingLines(report: Report, f: Finding, st: Style, instance = ""): string[] {
  const where = (f.file ? withLine(reportPath(report, f.file), f.line) : (f.address ?? "")) + instance;
  const label = st.severity(f.severity, f.severity.toUpperCase().padEnd(7));
  return [`  ${label} ${f.code}  ${st.dim(where)}`, `          ${f.message}`];
}

function zoneDetails(z: ZoneReport, st: Style): string[] {
  const lines: string[] = [];
  // A zone split across roots has its one ruleset in another root: say where instead of "0 rules".
  if (z.rulesetIn) lines.push(`  ${st.bold("Ruleset")} planned in ${instanceLabel(z.rulesetIn)}, with this root's skip rules (ZONE_SPLIT_ACROSS_ROOTS)`);
  else lines.push(`  ${st.bold("Ruleset")} "${z.ruleset.name}" (${z.ruleset.rules.length} rules):`);
  for (const r of z.ruleset.rules) {
    const state = r.enabled ? "" : " [disabled]";
    if (r.action === "skip") lines.push(`    skip     ${r.expression}${state}`);
    else {
      const ov = r.action_parameters?.overrides;
      const extra = ov?.rules?.length
        ? ` (${(ov.categories ?? []).map((c) => c.category).join(", ") || "all levels"} off; score ${ov.rules[0]?.score_threshold ?? "-"}, action ${ov.rules[0]?.action ?? "-"})`
        : "";
      lines.push(`    execute  ${r.description}${extra}${state}`);
    }
  }
  for (const i of z.imports) lines.push(`  ${st.bold("Import")}   ${i.to}  ${i.id}`);
  if (z.stateRemovals.length) {
    lines.push(`  ${st.bold("Remove from state")} (${removalCountText(z.stateRemovals)}):`);
    for (const a of z.stateRemovals) lines.push(`    ${a}`);
  }
  if (z.phase1.reasons.length) lines.push(st.dim(`  phase 1 would not have admitted it: ${z.phase1.reasons.join("; ")}`));
  return lines;
}

/** Files are named as in every report: relative to the working directory (paths.ts). */
function errorLocation(report: Report, e: InputError): string {
  return withLine(errorPath(report, e) ?? e.file, e.line, e.column);
}
