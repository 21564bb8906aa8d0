// SARIF 2.1.0 (OASIS) for code scanning: one run, one reportingDescriptor per finding code used, one
// result per finding and per input error. Checked against the schema in test/render/sarif-schema-2.1.0.json.
import { createHash } from "node:crypto";
import type { Finding, InputError, Report, Severity, StreamedReport } from "../core/model.js";
import { TOOL_NAME } from "../core/report.js";
import { errorPath, pathToUri, reportPath } from "../core/report-paths.js";
import { indentedJson } from "./indented-json.js";
import {
  compareCodes,
  defaultSeverity,
  FINDING_CODES_HELP_URI,
  INPUT_ERROR,
  INPUT_ERROR_HELP_URI,
  ruleDoc,
  ruleHelp,
  ruleName,
  TOOL_INFORMATION_URI,
} from "./rule-docs.js";

export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";
/** The key of our partialFingerprints entry; bump the version if the hashed fields ever change. */
export const FINGERPRINT_KEY = "cfWafMigrate/v1";

export type SarifLevel = "error" | "warning" | "note";

export function sarifLevel(s: Severity): SarifLevel {
  return s === "error" ? "error" : s === "warning" ? "warning" : "note";
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  helpUri: string;
  help: { text: string; markdown: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[] };
}

interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId?: string };
    region?: { startLine: number; startColumn?: number };
  };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations?: SarifLocation[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
}

/**
 * The base every relative artifact URI is resolved against: the directory the tool ran in, which report
 * paths are relative to (paths.ts). GitHub code scanning maps `%SRCROOT%` onto the repository checkout, so
 * results land on the right file wherever the tool ran.
 */
export const SRCROOT = "%SRCROOT%";

export interface SarifOptions {
  /**
   * The working directory as an absolute `file:` URI ending in `/` (`originalUriBaseIds["%SRCROOT%"].uri`).
   * Left out, the base is only described: consumers resolve it against the checkout, as GitHub does.
   */
  srcRootUri?: string;
}

export function renderSarif(report: Report | StreamedReport, opts: SarifOptions = {}): string {
  return [...renderSarifChunks(report, opts)].join("");
}

/**
 * The SARIF log piece by piece, one result at a time, so a report whose findings are read back from disk
 * (a large scan, estate/spill) is written without holding them, or the log, in memory. The text is exactly
 * `JSON.stringify(log, null, 2) + "\n"`. Walks the findings twice: once for the rules, once for the results.
 */
export function* renderSarifChunks(report: Report | StreamedReport, opts: SarifOptions = {}): Generator<string> {
  const codes = new Set<string>();
  const firstSeverity = new Map<string, Severity>();
  for (const f of report.findings) {
    codes.add(f.code);
    if (!firstSeverity.has(f.code)) firstSeverity.set(f.code, f.severity);
  }
  if (report.errors.length) codes.add(INPUT_ERROR);

  const rules: SarifRule[] = [...codes].sort(compareCodes).map((code) => {
    const doc = ruleDoc(code);
    const severity = defaultSeverity(code, firstSeverity.get(code) ?? "warning");
    return {
      id: code,
      name: ruleName(code),
      shortDescription: { text: doc.short },
      fullDescription: { text: doc.full },
      helpUri: code === INPUT_ERROR ? INPUT_ERROR_HELP_URI : FINDING_CODES_HELP_URI,
      help: ruleHelp(code, severity),
      defaultConfiguration: { level: sarifLevel(severity) },
      properties: { tags: ["terraform", "cloudflare", "waf"] },
    };
  });
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));

  const occurrences = new Map<string, number>();
  const fingerprint = (parts: (string | null)[]): string => {
    const hash = createHash("sha256").update(parts.map((p) => p ?? "").join("\u0000")).digest("hex").slice(0, 32);
    const n = (occurrences.get(hash) ?? 0) + 1;
    occurrences.set(hash, n);
    // `hash:occurrence`, the shape of GitHub's own primaryLocationLineHash: results that hash alike
    // (same code, address and zone) stay distinct, in report order.
    return `${hash}:${n}`;
  };

  // The log with a marker where the results go; the results are written between its two halves.
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            informationUri: TOOL_INFORMATION_URI,
            version: report.tool.version,
            rules,
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: opts.srcRootUri
            ? { uri: opts.srcRootUri }
            : { description: { text: "The directory cf-waf-migrate ran in (report paths are relative to it); normally the repository root." } },
        },
        results: RESULTS_MARKER,
      },
    ],
  };
  const text = JSON.stringify(log, null, 2);
  const at = text.lastIndexOf(JSON.stringify(RESULTS_MARKER));
  yield text.slice(0, at);
  if (report.findings.length + report.errors.length === 0) yield "[]";
  else {
    // The results array sits four levels deep: its items are indented by eight spaces, its `]` by six.
    let first = true;
    const item = (r: SarifResult) => {
      const piece = `${first ? "[" : ","}\n        ${indentedJson(r, 4)}`;
      first = false;
      return piece;
    };
    for (const f of report.findings) yield item(findingResult(report, f, ruleIndex.get(f.code)!, fingerprint));
    for (const e of report.errors) yield item(errorResult(report, e, ruleIndex.get(INPUT_ERROR)!, fingerprint));
    yield "\n      ]";
  }
  yield text.slice(at + JSON.stringify(RESULTS_MARKER).length) + "\n";
}

/** Where the results go in the log's text (a string no SARIF field holds). */
const RESULTS_MARKER = "\u0000results\u0000";

function instanceParts(f: Finding): string[] {
  const out: string[] = [];
  if (f.root !== undefined && f.root !== ".") out.push(`root:${f.root}`);
  if (f.workspace !== undefined && f.workspace !== "default") out.push(`workspace:${f.workspace}`);
  return out;
}

function findingResult(report: Pick<Report, "root">, f: Finding, index: number, fingerprint: (parts: (string | null)[]) => string): SarifResult {
  const r: SarifResult = {
    ruleId: f.code,
    ruleIndex: index,
    level: sarifLevel(f.severity),
    message: { text: f.message || f.code },
    partialFingerprints: {
      // Code, address and zone: stable across runs while the resource exists, whatever line it moves to.
      // A finding without an address (zone- or provider-level) hashes its file instead.
      // Identical addresses in two roots (or workspaces) are two results: the instance joins the hash,
      // except the one instance of a single-root run, whose fingerprints stay as they were.
      [FINGERPRINT_KEY]: fingerprint([f.code, f.address ?? (f.file !== null ? `file:${f.file}` : null), f.zoneId, ...instanceParts(f)]),
    },
    properties: { zoneId: f.zoneId, address: f.address, ...(f.root !== undefined ? { root: f.root, workspace: f.workspace ?? "default" } : {}) },
  };
  // A finding without a file gets no location: SARIF allows that, but GitHub code scanning will not show
  // it. The core anchors almost every finding (a zone finding at the zone's resource or first legacy block,
  // a provider finding at required_providers); what is left are state-only resources of unknown zones.
  if (f.file !== null && f.file !== "") r.locations = [location(reportPath(report, f.file), f.line, null)];
  return r;
}

function errorResult(report: Pick<Report, "root">, e: InputError, index: number, fingerprint: (parts: (string | null)[]) => string): SarifResult {
  const file = errorPath(report, e);
  const r: SarifResult = {
    ruleId: INPUT_ERROR,
    ruleIndex: index,
    level: "error",
    message: { text: e.message || "could not be read" },
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint([INPUT_ERROR, e.file, e.message]) },
    properties: { file: e.file, line: e.line, column: e.column },
  };
  // `<stdin>` names no artifact: no location.
  if (file !== null) r.locations = [location(file, e.line, e.column)];
  return r;
}

function location(file: string, line: number | null, column: number | null): SarifLocation {
  const uri = pathToUri(file);
  // Relative paths resolve against %SRCROOT%; an absolute path (a file outside the working directory) is
  // already a `file:` URI and takes no base.
  const artifactLocation = uri.startsWith("file:") ? { uri } : { uri, uriBaseId: SRCROOT };
  const loc: SarifLocation = { physicalLocation: { artifactLocation } };
  if (isPositiveInt(line)) {
    loc.physicalLocation.region = { startLine: line };
    if (isPositiveInt(column)) loc.physicalLocation.region.startColumn = column;
  }
  return loc;
}

function isPositiveInt(n: number | null | undefined): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 1;
}
