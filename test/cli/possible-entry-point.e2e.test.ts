// testdata/values-ruleset-phase: the zone's rulesets come from one map that a tfvars file outside the
// repository fills, so which phase each is in is not known offline, and its legacy WAF is still here. One of
// them may already be the zone's http_request_firewall_managed entry point: that is reported, never assumed
// away. With the values given, the entry point is found and the import goes into it.
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

const DIR = "testdata/values-ruleset-phase";
const ZONE = "7d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a";

interface Report {
  findings: { code: string; severity: string; address: string | null; zoneId: string | null; message: string; details?: { attribute?: string } }[];
  zones: { zoneId: string; imports: { to: string; id: string }[]; unresolved?: { address: string; attribute: string }[] }[];
}

async function scan(args: string[] = []): Promise<Report> {
  const r = await runCli(["scan", DIR, "--format", "json", "--quiet", ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

describe("a ruleset whose phase only a tfvars file knows, in a zone with legacy WAF", () => {
  it("is VALUE_UNRESOLVED at its phase: it may already manage the zone's entry point; the gate at warning fails", async () => {
    const report = await scan();
    const found = report.findings.filter((f) => f.code === "VALUE_UNRESOLVED");
    expect(found.map((f) => [f.address, f.zoneId, f.severity, f.details?.attribute])).toEqual([["cloudflare_ruleset.zone", ZONE, "warning", "phase"]]);
    expect(found[0]!.message).toContain("phase = each.value.phase is not known offline");
    expect(found[0]!.message).toContain("--var rulesets=VALUE");
    expect(found[0]!.message).toContain("merge the generated rules into it instead of adding a second resource for that entry point");
    expect(report.zones[0]!.unresolved?.map((u) => `${u.address} ${u.attribute}`)).toEqual(["cloudflare_ruleset.zone phase"]);
    expect(report.findings.some((f) => f.code === "MANAGED_RULESET_EXISTS")).toBe(false);
    expect((await runCli(["gate", DIR, "--fail-on", "warning", "--format", "text"])).exitCode).toBe(1);
  });

  it("with the tfvars given, the instance in the managed phase is the entry point the import goes into", async () => {
    const report = await scan(["--var-file", `${DIR}/example.tfvars`]);
    expect(report.findings.filter((f) => f.code === "VALUE_UNRESOLVED")).toEqual([]);
    expect(report.findings.filter((f) => f.code === "MANAGED_RULESET_EXISTS").map((f) => f.address)).toEqual(['cloudflare_ruleset.zone["managed"]']);
    expect(report.zones[0]!.imports).toEqual([{ to: 'cloudflare_ruleset.zone["managed"]', id: `zone/${ZONE}/<RULESET_ID>` }]);
  });
});
