// The text report of `cf-waf-migrate certs`: the Let's Encrypt chain timeline relative to the as-of date,
// then the findings grouped by urgency (overdue / due soon / later / information), each saying what the
// service does, what the owner should do and by when; then the `--fix` outcome (which edits force a
// replacement, the API commands for custom hostnames), the certificates that need nothing, and input errors.
//
// The certs command adds a `certs` section to the report (CertsReport); the JSON renderer prints it as is,
// which extends schemaVersion 1 compatibly. Pure: no I/O.

import type { CaTarget } from "../core/cert-fix.js";
import { daysBetween, relativeDays, type CertificateKind, type TimelineEntry, type Urgency } from "../core/certs.js";
import type { Finding, InputError, Report, Severity } from "../core/model.js";
import { errorPath, reportPath, withLine } from "../core/report-paths.js";
import { instanceLabel, isEstate } from "./instances.js";
import { makeStyle, type Style } from "./style.js";
import { compareText } from "../core/text-order.js";

/** One certificate the audit looked at (audited or not), for the "nothing to do" list. */
export interface CertInventoryEntry {
  address: string;
  kind: CertificateKind;
  file: string | null;
  line: number | null;
  zone: string | null;
  /** The CA in effect when known (`lets_encrypt`, `google`, …; the issuer's CA for uploads); null: default or unknown. */
  certificateAuthority: string | null;
  inConfig: boolean;
  inState: boolean;
  /** A block in config whose count/for_each is known to give no instance: no certificate, nothing to do. */
  noInstances?: true;
  /** The root module (relative to the report's `root`) and workspace it was read in. */
  root?: string;
  workspace?: string;
}

export type CertFixStatus = "patched" | "unchanged" | "skipped" | "refused";

export interface CertFixEntry {
  address: string;
  file: string;
  line: number;
  /** `certificate_authority` or `ssl.certificate_authority`. */
  attribute: string;
  kind: CertificateKind;
  from: string;
  /** The new value, or null when the line is deleted (custom hostname, `--to default`). */
  to: string | null;
  /** Applying the edit makes terraform plan replace the resource (certificate packs). */
  forcesReplacement: boolean;
  /**
   * patched: in the patch; unchanged: already the target; skipped: not valid for the provider; refused: the
   * editor refused, or the CA is an expression that is (or may be) Let's Encrypt (`reason` says which).
   */
  status: CertFixStatus;
  note: string;
  /** Why the edit was skipped or refused. */
  reason: string | null;
  /** Custom hostnames: the API command(s) that switch the CA (they print the request; `--yes` sends it). */
  commands: string[];
}

export interface CertFixSummary {
  target: CaTarget;
  /** The patch written, relative to the working directory; null when there was nothing to patch. */
  patchFile: string | null;
  /** How to apply it (`git apply certificate-ca.patch`), null without a patch. */
  applyCommand: string | null;
  edits: CertFixEntry[];
}

export interface CertsSection {
  /** The day the audit is computed for, `YYYY-MM-DD`. */
  asOf: string;
  timeline: TimelineEntry[];
  certificates: CertInventoryEntry[];
  fix?: CertFixSummary;
}

/** The report of the certs command: the common report plus its `certs` section. */
export type CertsReport = Report & { certs?: CertsSection };

export interface CertsTextOptions {
  color: boolean;
  title?: string;
}

type Group = "overdue" | "soon" | "later" | "info";

const GROUPS: { group: Group; title: string }[] = [
  { group: "overdue", title: "Overdue" },
  { group: "soon", title: "Due within 30 days" },
  { group: "later", title: "Later" },
  { group: "info", title: "No deadline" },
];

/** What the service does, per finding code (the spec's "Behavior" column, in one line). */
export const SERVICE_DOES: Record<string, string> = {
  CERT_UNIVERSAL_AUTO_SWITCH: "switches Universal certificates to a more compatible CA automatically (since June 2024)",
  CERT_ADVANCED_LETS_ENCRYPT:
    "does not change a pack that uses Let's Encrypt by choice; it e-mails the owner, and List Certificates shows which packs use it",
  CERT_TOTAL_TLS_LETS_ENCRYPT: "never changes the Total TLS CA automatically",
  CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT: "does not change the custom hostname automatically; it e-mails the SaaS provider",
  CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY: "keeps serving the cross-signed chain until this certificate expires",
  CERT_CUSTOM_REBUNDLED_SELF_SIGNED: "bundles it with the self-signed ISRG Root X1 chain instead of the cross-signed chain",
  CERT_CUSTOM_USER_DEFINED_CHAIN: "always serves the chain exactly as uploaded (user-defined bundling)",
  CERT_CA_UNKNOWN: "depends on the CA, which cannot be told offline",
};

export const KIND_LABEL: Record<CertificateKind, string> = {
  universal: "Universal certificate",
  advanced: "Advanced certificate pack",
  total_tls: "Total TLS",
  custom_hostname: "Custom hostname",
  custom_uploaded: "Uploaded certificate",
};

export function renderCertsText(report: CertsReport, opts: CertsTextOptions): string {
  const st = makeStyle(opts.color);
  const certs = report.certs;
  const out: string[] = [];
  out.push(summaryLine(report, st, opts.title ?? "certs"));

  if (certs) {
    out.push("");
    out.push(...timelineLines(certs.asOf, certs.timeline, st));
  }

  const byGroup = new Map<Group, Finding[]>();
  for (const f of report.findings) {
    const g = groupOf(f);
    byGroup.set(g, [...(byGroup.get(g) ?? []), f]);
  }
  for (const { group, title } of GROUPS) {
    const list = [...(byGroup.get(group) ?? [])].sort(byDeadline);
    if (list.length === 0) continue;
    out.push("");
    out.push(groupTitle(group, `${title} (${list.length})`, st));
    for (const f of list) out.push(...findingLines(report, f, certs?.asOf ?? null, st));
  }

  if (certs?.fix) {
    out.push("");
    out.push(...fixLines(report, certs.fix, st));
  }

  if (certs) {
    // By instance too: two roots may both declare `cloudflare_certificate_pack.main`.
    const withFinding = new Set(report.findings.filter((f) => f.address !== null).map((f) => certificateKey(f.address!, f)));
    // One Universal finding covers a zone; its other zone resources are not "unaffected".
    const universalZones = new Set(report.findings.filter((f) => f.code === "CERT_UNIVERSAL_AUTO_SWITCH").map((f) => f.zoneId));
    const quiet = certs.certificates.filter(
      (c) => !withFinding.has(certificateKey(c.address, c)) && !(c.kind === "universal" && universalZones.has(c.zone)),
    );
    if (quiet.length) {
      out.push("");
      out.push(st.bold(`No action (${quiet.length})`) + st.dim("  another CA, or nothing the chain change affects"));
      for (const c of quiet) {
        const ca = c.noInstances
          ? "no instance: its count/for_each gives none here"
          : c.certificateAuthority
            ? `CA ${c.certificateAuthority}`
            : c.kind === "custom_hostname"
              ? "default CA"
              : "CA not set";
        out.push(`  ${st.ok("ok")}  ${instancePrefix(report, c)}${c.address}  ${st.dim(`${KIND_LABEL[c.kind]}, ${ca}${c.file ? ` · ${where(report, c.file, c.line)}` : ""}`)}`);
      }
    }
  }

  if (report.errors.length) {
    out.push("");
    out.push(st.bold(st.severity("error", `Input that could not be read (${report.errors.length})`)));
    for (const e of report.errors) out.push(`  ${errorLocation(report, e)}: ${e.message}`);
  }
  if (report.findings.length === 0 && report.errors.length === 0 && (certs?.certificates.length ?? 0) === 0) {
    out.push("");
    out.push(st.ok("No certificate resources found (cloudflare_certificate_pack, cloudflare_total_tls, cloudflare_custom_hostname, cloudflare_custom_ssl, cloudflare_zone)."));
  }
  return out.join("\n") + "\n";
}

function summaryLine(report: CertsReport, st: Style, title: string): string {
  const count = (s: Severity) => report.findings.filter((f) => f.severity === s).length;
  const n = report.certs?.certificates.filter((c) => !c.noInstances).length ?? report.resources.length;
  const inConfig = report.resources.filter((r) => r.inConfig).length;
  const inState = report.resources.filter((r) => r.inState).length;
  const blocks = report.certs?.certificates.filter((c) => c.noInstances).length ?? 0;
  const parts = [
    `${n} certificate${n === 1 ? "" : "s"}${blocks ? ` and ${blocks} block${blocks === 1 ? "" : "s"} with no instance` : ""} (${report.resources.length} resource${report.resources.length === 1 ? "" : "s"}: ${inConfig} in config, ${inState} in state)`,
    st.severity("error", `${count("error")} error${count("error") === 1 ? "" : "s"}`),
    st.severity("warning", `${count("warning")} warning${count("warning") === 1 ? "" : "s"}`),
    st.severity("info", `${count("info")} info`),
  ];
  if (report.errors.length) parts.push(st.severity("error", `${report.errors.length} unreadable input${report.errors.length === 1 ? "" : "s"}`));
  const asOf = report.certs ? ` as of ${report.certs.asOf}` : "";
  return st.bold(`cf-waf-migrate ${title}${asOf}: `) + parts.join(", ");
}

function timelineLines(asOf: string, entries: TimelineEntry[], st: Style): string[] {
  const lines = [st.bold("Timeline of the Let's Encrypt chain change")];
  const dateWidth = Math.max(10, ...entries.map((e) => e.date.length));
  const relWidth = Math.max(...entries.map((e) => e.relative.length), "today".length);
  let todayShown = entries.some((e) => e.status === "current");
  const todayLine = () => `  ${st.bold("▶")} ${st.bold(asOf.padEnd(dateWidth))}  ${st.bold("today".padEnd(relWidth))}  ${st.dim("(as of)")}`;
  for (const e of entries) {
    if (!todayShown && e.status === "future") {
      lines.push(todayLine());
      todayShown = true;
    }
    const marker = e.status === "past" ? st.dim("✓") : e.status === "current" ? st.bold("▶") : "○";
    const rel = e.relative.padEnd(relWidth);
    const text = `${e.date.padEnd(dateWidth)}  ${rel}  ${e.change}`;
    lines.push(`  ${marker} ${e.status === "past" ? st.dim(text) : e.status === "current" ? st.bold(text) : text}`);
  }
  if (!todayShown) lines.push(todayLine());
  return lines;
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** Earliest deadline first, then the more severe, then by place. */
function byDeadline(a: Finding, b: Finding): number {
  const da = (a.details as { deadline?: string | null } | undefined)?.deadline ?? "9999-99-99";
  const db = (b.details as { deadline?: string | null } | undefined)?.deadline ?? "9999-99-99";
  return (
    compareText(da, db) ||
    RANK[b.severity] - RANK[a.severity] ||
    compareText(a.file ?? "", b.file ?? "") ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.code, b.code)
  );
}

function groupOf(f: Finding): Group {
  const u = (f.details as { urgency?: Urgency } | undefined)?.urgency;
  if (u === "overdue" || u === "soon" || u === "later") return u;
  return "info";
}

function groupTitle(g: Group, text: string, st: Style): string {
  if (g === "overdue") return st.bold(st.severity("error", text));
  if (g === "soon") return st.bold(st.severity("warning", text));
  return st.bold(text);
}

function findingLines(report: CertsReport, f: Finding, asOf: string | null, st: Style): string[] {
  const d = (f.details ?? {}) as { deadline?: string | null; action?: string; kind?: CertificateKind };
  const loc = f.file ? where(report, f.file, f.line) : "";
  const label = st.severity(f.severity, f.severity.toUpperCase().padEnd(7));
  const what = d.kind ? `${KIND_LABEL[d.kind]} ${f.address ?? ""}`.trim() : (f.address ?? "");
  const lines = [`  ${label} ${f.code}  ${instancePrefix(report, f)}${what}${loc ? `  ${st.dim(loc)}` : ""}`];
  const pad = "           ";
  const service = SERVICE_DOES[f.code];
  if (service) {
    lines.push(`${pad}${st.dim("Service:")} ${service}`);
    lines.push(`${pad}${st.dim("Do:     ")} ${d.action ?? "see below"}`);
    const by = d.deadline
      ? `${d.deadline}${asOf ? ` (${byText(asOf, d.deadline)})` : ""}`
      : "no deadline";
    lines.push(`${pad}${st.dim("By:     ")} ${by}`);
  } else {
    lines.push(`${pad}${f.message}`);
  }
  return lines;
}

export function byText(asOf: string, deadline: string): string {
  const days = daysBetween(asOf, deadline);
  return days > 0 ? relativeDays(days) : days === 0 ? "today: overdue" : `${relativeDays(days)}: overdue`;
}

function fixLines(report: CertsReport, fix: CertFixSummary, st: Style): string[] {
  const lines: string[] = [];
  const patched = fix.edits.filter((e) => e.status === "patched");
  const head = `Fix: certificate_authority to ${fix.target}`;
  if (fix.patchFile) {
    lines.push(st.bold(head) + ` · patch ${fix.patchFile} (${patched.length} edit${patched.length === 1 ? "" : "s"})`);
    if (fix.applyCommand) lines.push(`  apply with: ${fix.applyCommand}`);
  } else {
    lines.push(st.bold(head) + " · no patch written" + (fix.edits.length === 0 ? " (no certificate_authority = \"lets_encrypt\" literal in config)" : ""));
  }
  if (patched.some((e) => e.forcesReplacement)) {
    lines.push(st.dim("  REPLACES: terraform plan shows the resource replaced (-/+), a new certificate is issued; in place: updated in place"));
  }
  for (const e of fix.edits) {
    const tag =
      e.status !== "patched"
        ? st.severity("warning", e.status.toUpperCase().padEnd(8))
        : e.forcesReplacement
          ? st.severity("error", "REPLACES")
          : st.ok("in place");
    const change = e.to === null ? `delete ${e.attribute} = "${e.from}"` : `${e.attribute} "${e.from}" → "${e.to}"`;
    lines.push(`  ${tag}  ${e.address}  ${st.dim(where(report, e.file, e.line))}  ${change}`);
    if (e.reason) lines.push(`            ${st.severity("warning", e.reason)}`);
    for (const c of e.commands) lines.push(`            API: ${c}  ${st.dim("(prints the request; add --yes to send it)")}`);
    lines.push(st.dim(`            ${e.note}`));
  }
  return lines;
}

/** Files are named as in every report: relative to the working directory (paths.ts). */
/** `[live/prod] ` before an address when the report covers several roots or workspaces, else nothing. */
function instancePrefix(report: Report, at: { root?: string; workspace?: string }): string {
  return isEstate(report) && at.root !== undefined ? `[${instanceLabel(at)}] ` : "";
}

function certificateKey(address: string, at: { root?: string; workspace?: string }): string {
  return `${at.root ?? ""}\u0000${at.workspace ?? ""}\u0000${address}`;
}

function where(report: Report, file: string, line: number | null): string {
  return withLine(reportPath(report, file), line);
}

function errorLocation(report: Report, e: InputError): string {
  return withLine(errorPath(report, e) ?? e.file, e.line, e.column);
}
