// SARIF output checked against the SARIF 2.1.0 JSON schema kept beside these tests
// (sarif-schema-2.1.0.json): a faithful subset of the official OASIS schema (JSON Schema draft-07), written
// for this project. Every definition our output can reach keeps the official types, enums, required
// properties, anyOf constraints and `additionalProperties: false`; official definitions and properties we
// never write are left out, so the subset only ever rejects more than the official schema, never less.
// Formats: `uri` and `uri-reference` are checked by the small validators below (no ajv-formats); any
// other format is ignored.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { FINDING_CODES } from "../../src/core/findings.js";
import { RENDERERS } from "../../src/render/index.js";
import { FINGERPRINT_KEY, renderSarif } from "../../src/render/sarif.js";
import { ROOT } from "../support/cli.js";
import { makeSarifValidator } from "./sarif-validator.js";
import { BLOG, emptyReport, handReport, multiZoneReport, SHOP } from "./fixtures.js";

const makeValidator = makeSarifValidator;

interface Log {
  $schema: string;
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; informationUri: string; rules: Rule[] } };
    results: Result[];
  }[];
}
interface Rule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  helpUri: string;
  defaultConfiguration: { level: string };
}
interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations?: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
}

let validate: ReturnType<typeof makeValidator>;
beforeAll(() => {
  validate = makeValidator();
});

function render(report: Report): Log {
  const text = renderSarif(report);
  const log = JSON.parse(text) as Log;
  const ok = validate(log);
  if (!ok) throw new Error("SARIF does not validate:\n" + JSON.stringify(validate.errors, null, 2));
  return log;
}

describe("the schema itself", () => {
  it("rejects what the official schema rejects", () => {
    const good = JSON.parse(renderSarif(handReport())) as Log;
    const mutate = (fn: (l: Log & Record<string, unknown>) => void) => {
      const copy = structuredClone(good) as Log & Record<string, unknown>;
      fn(copy);
      return validate(copy);
    };
    expect(validate(good)).toBe(true);
    expect(mutate((l) => (l.version = "2.0.0"))).toBe(false);
    expect(mutate((l) => delete (l.runs[0] as Record<string, unknown>).tool)).toBe(false);
    expect(mutate((l) => (l.runs[0]!.results[0]!.level = "info"))).toBe(false);
    expect(mutate((l) => ((l.runs[0]!.results[0] as unknown as Record<string, unknown>).message = {}))).toBe(false);
    expect(mutate((l) => ((l.runs[0]!.results[0] as unknown as Record<string, unknown>).extra = 1))).toBe(false);
    expect(mutate((l) => (l.runs[0]!.results[0]!.locations![0]!.physicalLocation.region!.startLine = 0))).toBe(false);
    expect(mutate((l) => (l.runs[0]!.results[0]!.locations![0]!.physicalLocation.artifactLocation.uri = "has space.tf"))).toBe(false);
    expect(mutate((l) => (l.runs[0]!.tool.driver.rules[0]!.helpUri = "not a uri"))).toBe(false);
    expect(mutate((l) => (l.runs[0]!.tool.driver.rules[0]!.defaultConfiguration.level = "fatal"))).toBe(false);
    expect(mutate((l) => (l.runs[0]!.results[0]!.ruleIndex = -2))).toBe(false);
  });
});

describe("renderSarif on a hand-built report", () => {
  const report = handReport("infra/prod");

  it("validates against the SARIF 2.1.0 schema and has the log's fixed parts", () => {
    const log = render(report);
    expect(log.version).toBe("2.1.0");
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const driver = log.runs[0]!.tool.driver;
    expect(driver.name).toBe("cf-waf-migrate");
    expect(driver.version).toBe("9.9.9");
    expect(driver.informationUri).toMatch(/^https:\/\//);
  });

  it("has one rule per code used, plus INPUT_ERROR, with levels from FINDING_CODES", () => {
    const log = render(report);
    const rules = log.runs[0]!.tool.driver.rules;
    const ids = rules.map((r) => r.id);
    const used = [...new Set(report.findings.map((f) => f.code))];
    expect([...ids].sort()).toEqual([...used, "INPUT_ERROR"].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of rules) {
      expect(r.name).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(r.shortDescription.text.length).toBeGreaterThan(10);
      expect(r.fullDescription.text.length).toBeGreaterThan(10);
      expect(r.helpUri).toMatch(/^https:\/\/github\.com\/cf-waf-migrate\/cf-waf-migrate#[a-z-]+$/);
      const sev = r.id === "INPUT_ERROR" ? "error" : (FINDING_CODES as Record<string, string>)[r.id];
      const expected = sev === undefined ? "warning" : sev === "info" ? "note" : sev;
      expect([r.id, r.defaultConfiguration.level]).toEqual([r.id, expected]);
    }
    // Known codes first in FINDING_CODES order, unknown after, INPUT_ERROR last.
    expect(ids.at(-1)).toBe("INPUT_ERROR");
    expect(ids.at(-2)).toBe("SOME_FUTURE_CODE");
    expect(ids.indexOf("LEGACY_WAF_RESOURCE")).toBeLessThan(ids.indexOf("URI_WAF_OVERRIDE"));
  });

  it("gives every finding and every input error a result whose ruleIndex points at its rule", () => {
    const log = render(report);
    const { rules } = log.runs[0]!.tool.driver;
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(report.findings.length + report.errors.length);
    for (const r of results) expect(rules[r.ruleIndex]!.id).toBe(r.ruleId);
    report.findings.forEach((f, i) => {
      const r = results[i]!;
      expect(r.ruleId).toBe(f.code);
      expect(r.message.text).toBe(f.message);
      expect(r.level).toBe(f.severity === "info" ? "note" : f.severity);
      expect(r.properties).toMatchObject({ zoneId: f.zoneId, address: f.address });
    });
    const errs = results.slice(report.findings.length);
    for (const r of errs) expect([r.ruleId, r.level]).toEqual(["INPUT_ERROR", "error"]);
  });

  it("anchors results at root-relative paths joined into working-directory-relative URIs", () => {
    const log = render(report);
    const results = log.runs[0]!.results;
    const uriOf = (r: Result) => r.locations?.[0]?.physicalLocation.artifactLocation.uri;
    const regionOf = (r: Result) => r.locations?.[0]?.physicalLocation.region;
    expect(uriOf(results[0]!)).toBe("infra/prod/main.tf");
    expect(regionOf(results[0]!)).toEqual({ startLine: 5 });
    expect(uriOf(results[1]!)).toBe("infra/prod/modules/fw/main.tf");
    // A finding without a file has no locations at all (not an empty artifactLocation).
    const drift = results.find((r) => r.ruleId === "STATE_CONFIG_DRIFT")!;
    expect(drift.locations).toBeUndefined();
    // Input errors: a config error carries its column; a --state path typed relative to the working
    // directory is not joined with root twice; <stdin> has no location.
    const errs = results.filter((r) => r.ruleId === "INPUT_ERROR");
    expect(errs[0]!.locations![0]!.physicalLocation).toEqual({ artifactLocation: { uri: "infra/prod/broken.tf", uriBaseId: "%SRCROOT%" }, region: { startLine: 7, startColumn: 3 } });
    expect(errs[1]!.locations![0]!.physicalLocation).toEqual({ artifactLocation: { uri: "infra/prod/terraform.tfstate", uriBaseId: "%SRCROOT%" } });
    expect(errs[2]!.locations).toBeUndefined();
    for (const r of results) {
      const uri = uriOf(r);
      if (uri === undefined) continue;
      expect(uri).not.toMatch(/^\.\//);
      expect(uri).not.toMatch(/^\//);
      expect(uri).not.toContain("\\");
    }
  });

  it("with root '.' the file path is the uri; odd characters are percent-encoded", () => {
    const r = handReport(".");
    r.findings[0]!.file = "./dir with space/ü#1.tf";
    const log = render(r);
    const results = log.runs[0]!.results;
    expect(results[0]!.locations![0]!.physicalLocation.artifactLocation.uri).toBe("dir%20with%20space/%C3%BC%231.tf");
    expect(results[1]!.locations![0]!.physicalLocation.artifactLocation.uri).toBe("modules/fw/main.tf");
    const errs = results.filter((x) => x.ruleId === "INPUT_ERROR");
    expect(errs[1]!.locations![0]!.physicalLocation.artifactLocation.uri).toBe("terraform.tfstate");
  });

  it("normalizes ../ roots and Windows separators", () => {
    const r = handReport("../infra\\prod/");
    r.findings[0]!.file = "modules\\waf\\..\\main.tf";
    const log = render(r);
    expect(log.runs[0]!.results[0]!.locations![0]!.physicalLocation.artifactLocation.uri).toBe("../infra/prod/modules/main.tf");
  });

  it("fingerprints are stable across runs and line moves, distinct per code+address+zone", () => {
    const a = render(report).runs[0]!.results;
    const moved = handReport("infra/prod");
    for (const f of moved.findings) if (f.line) f.line += 10;
    const b = render(moved).runs[0]!.results;
    expect(b.map((r) => r.partialFingerprints)).toEqual(a.map((r) => r.partialFingerprints));
    const values = a.map((r) => r.partialFingerprints[FINGERPRINT_KEY]!);
    for (const v of values) expect(v).toMatch(/^[0-9a-f]{32}:[0-9]+$/);
    expect(new Set(values).size).toBe(values.length);
    // Same code and address in another zone: another fingerprint.
    const other = handReport("infra/prod");
    other.findings[0]!.zoneId = BLOG;
    expect(render(other).runs[0]!.results[0]!.partialFingerprints).not.toEqual(a[0]!.partialFingerprints);
  });

  it("is deterministic and pure (same text twice, input not modified)", () => {
    const r = handReport();
    const before = JSON.stringify(r);
    expect(renderSarif(r)).toBe(renderSarif(r));
    expect(JSON.stringify(r)).toBe(before);
  });

  it("an empty report is a valid log with no rules and no results", () => {
    const log = render(emptyReport());
    expect(log.runs[0]!.tool.driver.rules).toEqual([]);
    expect(log.runs[0]!.results).toEqual([]);
  });

  it("is what RENDERERS.sarif returns", () => {
    expect(RENDERERS.sarif(report, { color: true, title: "gate" })).toBe(renderSarif(report));
  });

  it("every rule carries help (text and Markdown) from the code's documentation, one per code", () => {
    const log = render(report);
    const rules = log.runs[0]!.tool.driver.rules as (Rule & { help: { text: string; markdown: string } })[];
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.help.text).toContain(r.fullDescription.text);
      expect(r.help.markdown).toContain(r.fullDescription.text);
      expect(r.help.markdown).toMatch(/\[[^\]]+\]\(https:\/\/[^)]+\)/);
    }
    // Every documented finding code has its own help (GitHub shows it under each alert).
    const all = handReport();
    all.findings = Object.keys(FINDING_CODES).map((code) => ({ code, severity: "warning", message: code, zoneId: null, address: null, file: "a.tf", line: 1 }));
    const helps = (render(all).runs[0]!.tool.driver.rules as (Rule & { help: { text: string } })[]).map((r) => r.help.text);
    expect(new Set(helps).size).toBe(Object.keys(FINDING_CODES).length + 1);
  });

  it("relative artifact URIs resolve against %SRCROOT%, described or given by the caller", () => {
    const log = render(report) as Log & { runs: { originalUriBaseIds: Record<string, { uri?: string; description?: { text: string } }> }[] };
    const locs = log.runs[0]!.results.flatMap((r) => r.locations ?? []).map((l) => l.physicalLocation.artifactLocation as { uri: string; uriBaseId?: string });
    expect(locs.length).toBeGreaterThan(0);
    for (const l of locs) expect(l.uriBaseId).toBe("%SRCROOT%");
    expect(log.runs[0]!.originalUriBaseIds["%SRCROOT%"]!.description!.text).toMatch(/directory/);
    const withRoot = JSON.parse(renderSarif(report, { srcRootUri: "file:///home/ci/repo/" })) as Log & { runs: { originalUriBaseIds: Record<string, { uri: string }> }[] };
    expect(validate(withRoot)).toBe(true);
    expect(withRoot.runs[0]!.originalUriBaseIds["%SRCROOT%"]).toEqual({ uri: "file:///home/ci/repo/" });
    // An absolute path (outside the working directory) is a file: URI and takes no base.
    const abs = handReport(".");
    abs.findings[0]!.file = "/etc/terraform/main.tf";
    const loc = render(abs).runs[0]!.results[0]!.locations![0]!.physicalLocation.artifactLocation as { uri: string; uriBaseId?: string };
    expect(loc).toEqual({ uri: "file:///etc/terraform/main.tf" });
  });
});

describe("renderSarif on the multi-zone example", () => {
  it("validates, and every location is a file that exists relative to the working directory", async () => {
    const report = await multiZoneReport();
    expect(report.root).toBe("testdata/multi-zone");
    const log = render(report);
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(report.findings.length + report.errors.length);
    const levels = new Set(results.map((r) => r.level));
    expect(levels).toEqual(new Set(["error", "warning", "note"]));
    let located = 0;
    for (const r of results) {
      const loc = r.locations?.[0]?.physicalLocation;
      if (!loc) continue;
      located++;
      expect(loc.artifactLocation.uri.startsWith("testdata/multi-zone/")).toBe(true);
      expect(existsSync(path.join(ROOT, decodeURIComponent(loc.artifactLocation.uri)))).toBe(true);
      expect(loc.region!.startLine).toBeGreaterThanOrEqual(1);
    }
    // The core anchors every finding of this example (DESIGN.md section 3).
    expect(located).toBe(results.length);
    const uriOverride = results.find((r) => r.ruleId === "URI_WAF_OVERRIDE")!;
    expect(uriOverride.level).toBe("error");
    expect(uriOverride.locations![0]!.physicalLocation).toEqual({
      artifactLocation: { uri: "testdata/multi-zone/modules/uri-overrides/main.tf", uriBaseId: "%SRCROOT%" },
      region: { startLine: 5 },
    });
    expect(uriOverride.properties).toEqual({ zoneId: SHOP, address: "module.uri_overrides[0].cloudflare_waf_override.checkout" });
  });
});
