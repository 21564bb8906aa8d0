// Checkstyle XML, byte for byte as TFLint writes it (`tflint --format checkstyle`, formatter/checkstyle.go),
// so the CI integrations built for TFLint (reviewdog, Jenkins Warnings, GitLab code quality converters)
// read this report unchanged: the XML header, two-space indent, a <file> per file in byte order with
// "(application)" first, and per finding <error source line column severity message link rule>, where
// source and rule are the finding code, link its documentation, severity error|warning|info. Input that
// could not be read is an <error> with source and rule INPUT_ERROR; one without a file (stdin) goes under
// "(application)". Unknown positions are 0, as TFLint writes them; a finding of no file is listed under
// the directory the report covers. Findings in TFLint's issue order; no trailing newline (TFLint prints
// none). Pure.
import type { Report } from "../core/model.js";
import { errorPath } from "../core/report-paths.js";
import { FINDING_CODES_HELP_URI, INPUT_ERROR, INPUT_ERROR_HELP_URI } from "./rule-docs.js";
import { compareBytes, findingsInTflintOrder } from "./tflint-order.js";

/** TFLint's name for errors that belong to no file. */
export const APPLICATION_SOURCE = "(application)";

interface CheckstyleError {
  source: string;
  line: number;
  column: number;
  severity: string;
  message: string;
  link: string;
  rule: string;
}

export function renderCheckstyle(report: Report): string {
  const files = new Map<string, CheckstyleError[]>();
  const add = (file: string, e: CheckstyleError): void => {
    const list = files.get(file);
    if (list) list.push(e);
    else files.set(file, [e]);
  };
  for (const { finding: f, file } of findingsInTflintOrder(report)) {
    add(file, { source: f.code, line: f.line ?? 0, column: 0, severity: f.severity, message: f.message, link: FINDING_CODES_HELP_URI, rule: f.code });
  }
  for (const e of report.errors) {
    add(errorPath(report, e) ?? APPLICATION_SOURCE, { source: INPUT_ERROR, line: e.line ?? 0, column: e.column ?? 0, severity: "error", message: e.message, link: INPUT_ERROR_HELP_URI, rule: INPUT_ERROR });
  }
  const names = [...files.keys()].sort((a, b) => (a === APPLICATION_SOURCE ? -1 : b === APPLICATION_SOURCE ? 1 : compareBytes(a, b)));
  const header = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (names.length === 0) return `${header}<checkstyle></checkstyle>`;
  const out = ["<checkstyle>"];
  for (const name of names) {
    out.push(`  <file name="${escapeXml(name)}">`);
    for (const e of files.get(name)!) {
      out.push(
        `    <error source="${escapeXml(e.source)}" line="${e.line}" column="${e.column}" severity="${escapeXml(e.severity)}" message="${escapeXml(e.message)}" link="${escapeXml(e.link)}" rule="${escapeXml(e.rule)}"></error>`,
      );
    }
    out.push("  </file>");
  }
  out.push("</checkstyle>");
  return header + out.join("\n");
}

/** encoding/xml's EscapeText: the five entities as numeric or named references, \t \n \r as hex, invalid characters as U+FFFD. */
export function escapeXml(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += "&#34;";
        continue;
      case "'":
        out += "&#39;";
        continue;
      case "&":
        out += "&amp;";
        continue;
      case "<":
        out += "&lt;";
        continue;
      case ">":
        out += "&gt;";
        continue;
      case "\t":
        out += "&#x9;";
        continue;
      case "\n":
        out += "&#xA;";
        continue;
      case "\r":
        out += "&#xD;";
        continue;
    }
    const valid = c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
    out += valid ? ch : "\uFFFD";
  }
  return out;
}
