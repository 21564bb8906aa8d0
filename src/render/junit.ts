// JUnit XML for CI test views: a suite per zone with one test case per check, a suite `inputs` (one test
// case per file that could not be read, in <error>: the check could not run, which is not a finding), and a
// suite `provider` for findings of no zone. A check fails when it has findings at error severity; warnings
// and info go into its <system-out>. Elements and attributes are those of the Jenkins JUnit schema
// (xunit-plugin junit-10.xsd), which CI test views accept: `skipped` exists on <testsuite> only.
import type { Finding, InputError, Report, ZoneReport } from "../core/model.js";
import { errorPath, reportPath, withLine } from "../core/report-paths.js";
import { findingsByZone, instanceLabel, isEstate, zoneKey } from "./instances.js";
import { CHECK_COMPATIBILITY, CHECK_PROVIDER_UPGRADE, compareCodes, INPUT_ERROR, ruleDoc, ZONE_CHECKS } from "./rule-docs.js";

export interface JunitOptions {
  /** Title of the report (the command that produced it), used in the <testsuites> name. */
  title?: string;
}

interface TestCase {
  name: string;
  /** Present when the case failed. */
  failure?: { message: string; type: string; body: string };
  /** Present when the case could not run (its input could not be read). */
  error?: { message: string; type: string; body: string };
  systemOut?: string;
}

interface TestSuite {
  name: string;
  properties: [string, string][];
  cases: TestCase[];
}

export function renderJunit(report: Report, opts: JunitOptions = {}): string {
  const suites: TestSuite[] = [];
  const { byZone, other } = findingsByZone(report);
  const noZone: Finding[] = [];
  const otherZones = new Map<string, Finding[]>();
  for (const f of other) {
    if (f.zoneId === null) noZone.push(f);
    else otherZones.set(f.zoneId, [...(otherZones.get(f.zoneId) ?? []), f]);
  }

  const estate = isEstate(report);
  for (const z of report.zones) suites.push(zoneSuite(report, z, byZone.get(zoneKey(z.zoneId, z)) ?? [], estate));
  // Findings that name a zone the migration does not touch (certificates, for instance): a suite of their
  // own, with only the checks that found something.
  for (const [zoneId, findings] of [...otherZones].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    suites.push({ name: `zone ${zoneId}`, properties: [["zoneId", zoneId]], cases: checks(report, findings, []) });
  }
  if (noZone.length) suites.push({ name: "provider", properties: [], cases: checks(report, noZone, [CHECK_PROVIDER_UPGRADE]) });
  suites.push(inputsSuite(report));

  const tests = suites.reduce((n, s) => n + s.cases.length, 0);
  const failures = suites.reduce((n, s) => n + s.cases.filter((c) => c.failure).length, 0);
  const errors = suites.reduce((n, s) => n + s.cases.filter((c) => c.error).length, 0);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="${attr(`cf-waf-migrate ${opts.title ?? "scan"}`)}" tests="${tests}" failures="${failures}" errors="${errors}" time="0">`,
  );
  for (const s of suites) out.push(...suiteXml(s));
  out.push("</testsuites>");
  return out.join("\n") + "\n";
}

function zoneSuite(report: Report, z: ZoneReport, findings: Finding[], estate: boolean): TestSuite {
  const name = `zone ${z.zoneId}${z.zoneName ? ` (${z.zoneName})` : ""}${estate ? ` in ${instanceLabel(z)}` : ""}`;
  const cases = checks(report, findings, ZONE_CHECKS);
  if (!z.compatible) {
    // The compatibility check fails on the zone's verdict even if no URI_WAF_OVERRIDE finding came along.
    const c = cases.find((x) => x.name === CHECK_COMPATIBILITY)!;
    c.failure ??= { message: "the zone is not compatible with the migration (URI-based WAF override)", type: "URI_WAF_OVERRIDE", body: "" };
  }
  return {
    name,
    properties: [
      ["zoneId", z.zoneId],
      ...(z.zoneName ? ([["zoneName", z.zoneName]] as [string, string][]) : []),
      ["plan", z.plan],
      ["compatible", String(z.compatible)],
      ["migrationMode", z.migrationMode],
      ...(estate ? ([["root", z.root ?? "."], ["workspace", z.workspace ?? "default"]] as [string, string][]) : []),
    ],
    cases,
  };
}

/** One test case per fixed check (always listed), then one per further check that has findings. */
function checks(report: Report, findings: Finding[], fixed: readonly string[]): TestCase[] {
  const byCheck = new Map<string, Finding[]>();
  for (const name of fixed) byCheck.set(name, []);
  const codes = [...new Set(findings.map((f) => f.code))].sort(compareCodes);
  for (const code of codes) {
    const check = ruleDoc(code).check;
    if (!byCheck.has(check)) byCheck.set(check, []);
  }
  for (const f of findings) byCheck.get(ruleDoc(f.code).check)!.push(f);
  return [...byCheck].map(([name, fs]) => checkCase(report, name, fs));
}

function checkCase(report: Report, name: string, findings: Finding[]): TestCase {
  const errors = findings.filter((f) => f.severity === "error");
  const rest = findings.filter((f) => f.severity !== "error");
  const c: TestCase = { name };
  if (errors.length) {
    const codes = [...new Set(errors.map((f) => f.code))];
    c.failure = {
      message: errors.length === 1 ? `${errors[0]!.code}: ${errors[0]!.message}` : `${errors.length} errors: ${codes.join(", ")}`,
      type: codes.join(","),
      body: errors.map((f) => findingText(report, f)).join("\n"),
    };
  }
  if (rest.length) c.systemOut = rest.map((f) => findingText(report, f)).join("\n");
  return c;
}

function findingText(report: Report, f: Finding): string {
  const where = f.file ? withLine(reportPath(report, f.file), f.line) : (f.address ?? "");
  return `${f.severity.toUpperCase()} ${f.code}${where ? ` ${where}` : ""}\n  ${f.message.replace(/\n/g, "\n  ")}`;
}

function inputsSuite(report: Report): TestSuite {
  const cases: TestCase[] = report.errors.map((e) => errorCase(report, e));
  if (!cases.length) cases.push({ name: "all inputs could be read" });
  return { name: "inputs", properties: [], cases };
}

function errorCase(report: Report, e: InputError): TestCase {
  const where = withLine(errorPath(report, e) ?? e.file, e.line, e.column);
  return { name: `read ${where}`, error: { message: e.message, type: INPUT_ERROR, body: `${where}: ${e.message}` } };
}

function suiteXml(s: TestSuite): string[] {
  const failures = s.cases.filter((c) => c.failure).length;
  const errors = s.cases.filter((c) => c.error).length;
  const out = [
    `  <testsuite name="${attr(s.name)}" tests="${s.cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="0">`,
  ];
  if (s.properties.length) {
    out.push("    <properties>");
    for (const [k, v] of s.properties) out.push(`      <property name="${attr(k)}" value="${attr(v)}"/>`);
    out.push("    </properties>");
  }
  for (const c of s.cases) {
    const open = `    <testcase name="${attr(c.name)}" classname="${attr(s.name)}" time="0"`;
    if (!c.failure && !c.error && !c.systemOut) {
      out.push(`${open}/>`);
      continue;
    }
    out.push(`${open}>`);
    // The schema's order within <testcase>: error, failure, system-out.
    if (c.error) out.push(`      <error message="${attr(c.error.message)}" type="${attr(c.error.type)}">${text(c.error.body)}</error>`);
    if (c.failure) {
      out.push(`      <failure message="${attr(c.failure.message)}" type="${attr(c.failure.type)}">${text(c.failure.body)}</failure>`);
    }
    if (c.systemOut) out.push(`      <system-out>${text(c.systemOut)}</system-out>`);
    out.push("    </testcase>");
  }
  out.push("  </testsuite>");
  return out;
}

// ---- XML escaping -----------------------------------------------------------------------------------

/**
 * Characters XML 1.0 forbids (C0 controls other than tab, newline and carriage return, lone surrogates,
 * U+FFFE, U+FFFF) cannot appear even as character references: they are written as `\uXXXX` text.
 */
export function xmlSafe(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const ok =
      cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    out += ok ? ch : `\\u${cp.toString(16).padStart(4, "0")}`;
  }
  return out;
}

/** Element text: `&`, `<`, `>` escaped; carriage returns kept as references (parsers normalize raw ones). */
export function text(s: string): string {
  return xmlSafe(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/** Attribute value in double quotes: also `"`, `'`, and tab/newline/CR as references (else normalized to spaces). */
export function attr(s: string): string {
  return xmlSafe(s)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}
