// The checkstyle and compact formats are TFLint's (formatter/checkstyle.go, formatter/compact.go): the
// expected texts below follow TFLint's own formatter tests, so a tool that reads TFLint's output reads ours.
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { escapeXml, renderCheckstyle } from "../../src/render/checkstyle.js";
import { renderCompact } from "../../src/render/compact.js";
import { emptyReport, handReport } from "./fixtures.js";

const LINK = "https://github.com/cf-waf-migrate/cf-waf-migrate#finding-codes";
const ERR_LINK = "https://github.com/cf-waf-migrate/cf-waf-migrate#exit-codes";

function small(): Report {
  return {
    ...emptyReport(),
    root: "infra",
    findings: [
      { code: "LEGACY_WAF_RESOURCE", severity: "warning", message: 'b "quoted" & <tagged>', zoneId: "z", address: null, file: "main.tf", line: 9 },
      { code: "URI_WAF_OVERRIDE", severity: "error", message: "a first", zoneId: "z", address: null, file: "main.tf", line: 9 },
      { code: "VALIDATION_MODE_UNAVAILABLE", severity: "info", message: "no file", zoneId: "z", address: null, file: null, line: null },
    ],
    errors: [{ file: "broken.tf", line: 2, column: 5, message: "Invalid expression" }],
  };
}

describe("checkstyle (TFLint's)", () => {
  it("no findings: the header and an empty element, no trailing newline", () => {
    expect(renderCheckstyle(emptyReport())).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle></checkstyle>');
  });

  it("a <file> per file in byte order, errors in TFLint's issue order, attributes escaped as encoding/xml does", () => {
    expect(renderCheckstyle(small())).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<checkstyle>",
        '  <file name="infra">',
        `    <error source="VALIDATION_MODE_UNAVAILABLE" line="0" column="0" severity="info" message="no file" link="${LINK}" rule="VALIDATION_MODE_UNAVAILABLE"></error>`,
        "  </file>",
        '  <file name="infra/broken.tf">',
        `    <error source="INPUT_ERROR" line="2" column="5" severity="error" message="Invalid expression" link="${ERR_LINK}" rule="INPUT_ERROR"></error>`,
        "  </file>",
        '  <file name="infra/main.tf">',
        `    <error source="URI_WAF_OVERRIDE" line="9" column="0" severity="error" message="a first" link="${LINK}" rule="URI_WAF_OVERRIDE"></error>`,
        `    <error source="LEGACY_WAF_RESOURCE" line="9" column="0" severity="warning" message="b &#34;quoted&#34; &amp; &lt;tagged&gt;" link="${LINK}" rule="LEGACY_WAF_RESOURCE"></error>`,
        "  </file>",
        "</checkstyle>",
      ].join("\n"),
    );
  });

  it("input without a file goes under (application), first; control characters and lone surrogates are escaped or replaced", () => {
    const xml = renderCheckstyle(handReport());
    expect(xml.split("\n")[2]).toBe('  <file name="(application)">');
    expect(xml).toContain('message="standard input can be read only once"');
    expect(xml).toContain("5000 bytes | over the 4096 limit&#xA;second line");
    expect(escapeXml("a\tb\rc\u0001d\ud800'")).toBe("a&#x9;b&#xD;c\uFFFDd\uFFFD&#39;");
  });
});

describe("compact (TFLint's)", () => {
  it("no findings and no errors: nothing", () => {
    expect(renderCompact(emptyReport())).toBe("");
  });

  it("the count, a blank line, file:line:column: Severity - message (CODE); input errors as TFLint prints diagnostics", () => {
    expect(renderCompact(small())).toBe(
      [
        "3 issue(s) found:",
        "",
        "infra:0:0: Notice - no file (VALIDATION_MODE_UNAVAILABLE)",
        "infra/main.tf:9:0: Error - a first (URI_WAF_OVERRIDE)",
        'infra/main.tf:9:0: Warning - b "quoted" & <tagged> (LEGACY_WAF_RESOURCE)',
        "infra/broken.tf:2:5: error - Invalid expression",
        "",
      ].join("\n"),
    );
  });

  it("one line per problem, and input of no file (stdin) left to stderr", () => {
    const text = renderCompact(handReport());
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe(`${handReport().findings.length} issue(s) found:`);
    expect(lines.length).toBe(2 + handReport().findings.length + 2);
    expect(text).not.toContain("standard input");
    expect(text).toContain("infra/prod/modules/fw/main.tf:12:0: Error - expression is 5000 bytes | over the 4096 limit second line (FIREWALL_EXPRESSION_TOO_LONG)");
  });
});
