// JUnit XML: parsed back with the strict well-formedness reader in ./xml.ts; suites, test cases, failures
// and the count attributes must agree with each other and with the report.
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { RENDERERS } from "../../src/render/index.js";
import { attr, renderJunit, text, xmlSafe } from "../../src/render/junit.js";
import { BLOG, CERT_ZONE, emptyReport, handReport, multiZoneReport, SHOP } from "./fixtures.js";
import { junitSchemaErrors } from "./junit-schema.js";
import { findAll, parseXml, type XmlElement } from "./xml.js";

function parse(report: Report, title?: string): XmlElement {
  const xml = renderJunit(report, title === undefined ? {} : { title });
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const root = parseXml(xml);
  expect(junitSchemaErrors(root)).toEqual([]);
  return root;
}

/** The count attributes of every <testsuite> and of <testsuites> agree with the elements inside. */
function checkCounts(root: XmlElement): void {
  expect(root.name).toBe("testsuites");
  const suites = root.children.filter((c) => c.name === "testsuite");
  expect(suites.length).toBe(root.children.length);
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const s of suites) {
    const cases = s.children.filter((c) => c.name === "testcase");
    const failed = cases.filter((c) => c.children.some((x) => x.name === "failure"));
    const erred = cases.filter((c) => c.children.some((x) => x.name === "error"));
    expect(s.attrs).toMatchObject({ tests: String(cases.length), failures: String(failed.length), errors: String(erred.length), skipped: "0", time: "0" });
    for (const c of cases) {
      expect(c.attrs.time).toBe("0");
      expect(c.attrs.classname).toBe(s.attrs.name);
      expect(c.children.filter((x) => x.name === "failure").length).toBeLessThanOrEqual(1);
      for (const fl of c.children.filter((x) => x.name === "failure")) {
        expect(fl.attrs.message).toBeTruthy();
        expect(fl.attrs.type).toBeTruthy();
      }
    }
    tests += cases.length;
    failures += failed.length;
    errors += erred.length;
  }
  expect(root.attrs).toEqual({ name: root.attrs.name, tests: String(tests), failures: String(failures), errors: String(errors), time: "0" });
}

const suite = (root: XmlElement, name: string) => root.children.find((s) => s.attrs.name === name);
const testcase = (s: XmlElement, name: string) => s.children.find((c) => c.name === "testcase" && c.attrs.name === name);
const failureOf = (c: XmlElement) => c.children.find((x) => x.name === "failure");
const outOf = (c: XmlElement) => c.children.find((x) => x.name === "system-out")?.text;

describe("renderJunit on a hand-built report", () => {
  const report = handReport("infra/prod");

  it("is well-formed and its counts add up", () => {
    const root = parse(report, "gate");
    checkCounts(root);
    expect(root.attrs.name).toBe("cf-waf-migrate gate");
  });

  it("has a suite per zone with the four fixed checks, then one per finding family present", () => {
    const root = parse(report);
    const shop = suite(root, `zone ${SHOP} (shop.example.com)`)!;
    const names = shop.children.filter((c) => c.name === "testcase").map((c) => c.attrs.name);
    expect(names.slice(0, 4)).toEqual(["compatibility (URI overrides)", "firewall rule limit", "expression length", "provider upgrade"]);
    expect(names.slice(4)).toEqual(["legacy WAF resources", "migration mode", "ruleset id"]);
    const props = Object.fromEntries(findAll(shop, "property").map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toEqual({ zoneId: SHOP, zoneName: "shop.example.com", plan: "business", compatible: "false", migrationMode: "pending" });

    // Errors fail their check, with the location relative to the working directory.
    const compat = failureOf(testcase(shop, "compatibility (URI overrides)")!)!;
    expect(compat.attrs.type).toBe("URI_WAF_OVERRIDE");
    expect(compat.attrs.message).toMatch(/^URI_WAF_OVERRIDE: cloudflare_waf_override\.checkout is a URI-based/);
    expect(compat.text).toContain("ERROR URI_WAF_OVERRIDE infra/prod/main.tf:5");
    const len = failureOf(testcase(shop, "expression length")!)!;
    // A newline in an attribute survives as a character reference.
    expect(len.attrs.message).toBe("FIREWALL_EXPRESSION_TOO_LONG: expression is 5000 bytes | over the 4096 limit\nsecond line");
    expect(failureOf(testcase(shop, "firewall rule limit")!)).toBeUndefined();
    expect(testcase(shop, "firewall rule limit")!.children).toEqual([]);

    // Warnings (and info) pass, printed in system-out.
    const legacy = testcase(shop, "legacy WAF resources")!;
    expect(failureOf(legacy)).toBeUndefined();
    expect(outOf(legacy)).toContain("WARNING LEGACY_WAF_RESOURCE infra/prod/main.tf:5");
    expect(outOf(testcase(shop, "migration mode")!)).toContain("INFO VALIDATION_MODE_UNAVAILABLE");
    expect(outOf(testcase(shop, "ruleset id")!)).toContain("ZONE=<id>; run `cf-waf-migrate api entrypoint --zone x|y`");
  });

  it("a zone without a name, a compatible zone, and a finding without a file", () => {
    const root = parse(report);
    const blog = suite(root, `zone ${BLOG}`)!;
    expect(blog).toBeDefined();
    expect(failureOf(testcase(blog, "compatibility (URI overrides)")!)).toBeUndefined();
    const drift = testcase(blog, "state and config drift")!;
    // No file: the address says where.
    expect(outOf(drift)).toContain("WARNING STATE_CONFIG_DRIFT cloudflare_waf_group.retired");
  });

  it("fails compatibility on the zone verdict even without a URI_WAF_OVERRIDE finding", () => {
    const r = handReport();
    r.findings = r.findings.filter((f) => f.code !== "URI_WAF_OVERRIDE");
    const root = parse(r);
    checkCounts(root);
    const shop = suite(root, `zone ${SHOP} (shop.example.com)`)!;
    expect(failureOf(testcase(shop, "compatibility (URI overrides)")!)!.attrs.type).toBe("URI_WAF_OVERRIDE");
  });

  it("puts findings of no zone in `provider`, other zones in a suite of their own, input errors in `inputs`", () => {
    const root = parse(report);
    const names = root.children.map((s) => s.attrs.name);
    expect(names).toEqual([`zone ${SHOP} (shop.example.com)`, `zone ${BLOG}`, `zone ${CERT_ZONE}`, "provider", "inputs"]);

    const provider = suite(root, "provider")!;
    const upgrade = failureOf(testcase(provider, "provider upgrade")!)!;
    expect(upgrade.attrs.type).toBe("PROVIDER_UPGRADE_BLOCKED");
    expect(upgrade.attrs.message).toBe('PROVIDER_UPGRADE_BLOCKED: required_providers allows "~> 4.0" & legacy resources remain <now>');
    expect(outOf(testcase(provider, "modules")!)).toContain("INFO REMOTE_MODULE_NOT_FOLLOWED infra/prod/main.tf:40");

    const certs = suite(root, `zone ${CERT_ZONE}`)!;
    expect(certs.children.filter((c) => c.name === "testcase").map((c) => c.attrs.name)).toEqual(["certificates", "SOME_FUTURE_CODE"]);

    const inputs = suite(root, "inputs")!;
    const cases = inputs.children.filter((c) => c.name === "testcase");
    expect(cases).toHaveLength(report.errors.length);
    expect(cases.map((c) => c.attrs.name)).toEqual(["read infra/prod/broken.tf:7:3", "read infra/prod/terraform.tfstate", "read <stdin>"]);
    // Unreadable input is an <error> (the check could not run), not a <failure>.
    for (const c of cases) expect(c.children.find((x) => x.name === "error")!.attrs.type).toBe("INPUT_ERROR");
    for (const c of cases) expect(failureOf(c)).toBeUndefined();
    expect(inputs.attrs).toMatchObject({ errors: "3", failures: "0" });
  });

  it("escapes markup and replaces characters XML 1.0 forbids", () => {
    const xml = renderJunit(report);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const root = parseXml(xml);
    const out = outOf(testcase(suite(root, `zone ${CERT_ZONE}`)!, "SOME_FUTURE_CODE")!)!;
    expect(out).toContain("control \\u0001 chars \\u001b[31m and a lone \\ud800 surrogate");
    expect(xmlSafe("a\u0000b\uFFFEc\t\n\r😀")).toBe("a\\u0000b\\ufffec\t\n\r😀");
    expect(attr(`<a href="x">'&'</a>\n\t`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;&#10;&#9;");
    expect(text("]]> & <x>\r\n")).toBe("]]&gt; &amp; &lt;x&gt;&#13;\n");
    // Every name and message round-trips through the parser.
    for (const s of ["a|b", 'q"uote', "it's", "<tag>", "a & b", "line\nbreak", "tab\there", "cr\rhere"]) {
      const el = parseXml(`<x a="${attr(s)}">${text(s)}</x>`);
      expect(el.attrs.a).toBe(s);
      expect(el.text).toBe(s);
    }
  });

  it("an empty report: only the inputs suite, with one passing test", () => {
    const root = parse(emptyReport());
    checkCounts(root);
    expect(root.children.map((s) => s.attrs.name)).toEqual(["inputs"]);
    expect(root.attrs).toMatchObject({ tests: "1", failures: "0" });
  });

  it("is deterministic, pure, and what RENDERERS.junit returns", () => {
    const r = handReport();
    const before = JSON.stringify(r);
    expect(renderJunit(r, { title: "scan" })).toBe(renderJunit(r, { title: "scan" }));
    expect(JSON.stringify(r)).toBe(before);
    expect(RENDERERS.junit(r, { color: true, title: "scan" })).toBe(renderJunit(r, { title: "scan" }));
  });
});

describe("the XML reader rejects what is not well-formed", () => {
  it.each([
    ["<a><b></a></b>"],
    ['<a x="1" x="2"/>'],
    ["<a x=1/>"],
    ['<a x="<"/>'],
    ["<a>&nbsp;</a>"],
    ["<a>a & b</a>"],
    ["<a>&#1;</a>"],
    ["<a>\u0001</a>"],
    ["<a/><b/>"],
    ["<a>"],
  ])("%s", (xml) => {
    expect(() => parseXml(xml)).toThrow();
  });
});

describe("renderJunit on the multi-zone example", () => {
  it("counts match the report: every error finding fails its check, nothing else fails", async () => {
    const report = await multiZoneReport();
    const root = parse(report, "scan");
    checkCounts(root);
    const zoneSuites = root.children.filter((s) => s.attrs.name!.startsWith("zone "));
    expect(zoneSuites.map((s) => s.attrs.name)).toEqual(report.zones.map((z) => `zone ${z.zoneId} (${z.zoneName})`));

    // Each finding appears exactly once, in a failure (errors) or in system-out (warnings, info).
    const texts = findAll(root, "failure").map((f) => f.text).join("\n") + "\n" + findAll(root, "system-out").map((s) => s.text).join("\n");
    const mentions = texts.split("\n").filter((l) => /^(ERROR|WARNING|INFO) [A-Z_]+/.test(l));
    expect(mentions).toHaveLength(report.findings.length);
    const errorFindings = report.findings.filter((f) => f.severity === "error");
    expect(findAll(root, "failure").flatMap((f) => f.text.split("\n").filter((l) => l.startsWith("ERROR ")))).toHaveLength(errorFindings.length);

    const shop = zoneSuites.find((s) => s.attrs.name!.includes(SHOP))!;
    expect(failureOf(testcase(shop, "compatibility (URI overrides)")!)!.text).toContain(
      "ERROR URI_WAF_OVERRIDE testdata/multi-zone/modules/uri-overrides/main.tf:5",
    );
    const blog = zoneSuites.find((s) => s.attrs.name!.includes(BLOG))!;
    expect(blog.attrs.failures).toBe("0");
    expect(root.attrs.failures).toBe("1");
    expect(suite(root, "inputs")!.attrs).toMatchObject({ tests: "1", failures: "0" });
  });
});

describe("the Jenkins JUnit schema checker", () => {
  const ok = parseXml('<testsuites tests="1"><testsuite name="s" tests="1"><testcase name="c"><error message="m">x</error><failure/></testcase></testsuite></testsuites>');
  it("accepts what the schema accepts, rejects what it rejects", () => {
    expect(junitSchemaErrors(ok)).toEqual([]);
    const bad = (xml: string) => junitSchemaErrors(parseXml(xml));
    expect(bad('<testsuites skipped="0"/>')).toEqual(["/testsuites: attribute skipped not allowed"]);
    expect(bad('<testsuites><testsuite tests="1"/></testsuites>')).toEqual(["/testsuites/testsuite: attribute name missing"]);
    expect(bad('<testsuites><testsuite name="s" tests="x"/></testsuites>')[0]).toMatch(/not an integer/);
    expect(bad('<testsuites><testsuite name="s" tests="1"><testcase name="c"><failure/><error/></testcase></testsuite></testsuites>')[0]).toMatch(/<error> not allowed here/);
    expect(bad('<testsuites><testsuite name="s" tests="1"><system-out/><testcase name="c"/></testsuite></testsuites>')[0]).toMatch(/<testcase> not allowed here/);
    expect(bad('<testsuites><testsuite name="s" tests="1"><properties/></testsuite></testsuites>')[0]).toMatch(/at least 1 <property>/);
  });
});
