// One path convention in every report (src/core/report-paths.ts): a file is named relative to the working
// directory, forward slashes, `file:line[:column]`. The same report, whose `root` is `infra/prod` and
// whose finding files are relative to it, rendered in every format must name the same files the same way.
import { describe, expect, it } from "vitest";
import { renderPlanMarkdown } from "../../src/plan/plan-markdown.js";
import { renderCertsText } from "../../src/render/certs-text.js";
import { renderJson } from "../../src/render/json.js";
import { renderJunit } from "../../src/render/junit.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderSarif } from "../../src/render/sarif.js";
import { renderText } from "../../src/render/text.js";
import { handReport } from "./fixtures.js";

describe("every report names files the same way", () => {
  const report = handReport("infra/prod");
  // From the fixture: a provider finding in versions.tf line 3, a certificate finding in certs.tf line 2,
  // and an input error in broken.tf line 7 column 3, all relative to root.
  const finding = "infra/prod/versions.tf:3";
  const cert = "infra/prod/certs.tf:2";
  const error = "infra/prod/broken.tf:7:3";

  const outputs: Record<string, string> = {
    text: renderText(report, { color: false }),
    markdown: renderMarkdown(report),
    "PLAN.md": renderPlanMarkdown({ report, providerMajor: 4, artifacts: [], stateRemovals: [] }),
    junit: renderJunit(report),
    certs: renderCertsText(report, { color: false }),
  };

  for (const [format, out] of Object.entries(outputs)) {
    it(`${format}: ${finding}, ${error}${format === "certs" ? `, ${cert}` : ""}`, () => {
      expect(out).toContain(finding);
      expect(out).toContain(error);
      if (format === "certs") expect(out).toContain(cert);
      // Never the root-relative spelling alone (a path a reader cannot open from where the tool ran).
      expect(out).not.toMatch(/(^|[\s`(|])versions\.tf:3/m);
      expect(out).not.toMatch(/(^|[\s`(|])broken\.tf:7/m);
    });
  }

  it("sarif: the same path as the artifact URI (against %SRCROOT%), the line in the region", () => {
    const log = JSON.parse(renderSarif(report)) as { runs: { results: { ruleId: string; locations?: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }[] }[] }[] };
    const at = (code: string) => log.runs[0]!.results.filter((r) => r.ruleId === code && r.locations).map((r) => r.locations![0]!.physicalLocation);
    expect(at("PROVIDER_UPGRADE_BLOCKED")[0]).toMatchObject({ artifactLocation: { uri: "infra/prod/versions.tf" }, region: { startLine: 3 } });
    expect(at("INPUT_ERROR")[0]).toMatchObject({ artifactLocation: { uri: "infra/prod/broken.tf" }, region: { startLine: 7, startColumn: 3 } });
  });

  it("json: the contract is root plus root-relative file, which joins to the same path", () => {
    const json = JSON.parse(renderJson(report)) as { root: string; findings: { code: string; file: string; line: number }[] };
    const f = json.findings.find((x) => x.code === "PROVIDER_UPGRADE_BLOCKED")!;
    expect(`${json.root}/${f.file}:${f.line}`).toBe(finding);
  });
});
