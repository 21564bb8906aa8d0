// The pure decisions on the service's answers: where the migration stands, which ruleset and id the
// analysis uses (explicit flags win), and the findings where the service and the files disagree.
import { describe, expect, it } from "vitest";
import type { Ruleset, ZoneReport } from "../../src/core/model.js";
import { migrationStage, rulesetDifference, serviceFindings, serviceRuleset, withServiceAnswers, zoneServiceOf, type ServiceAnswers } from "../../src/core/service-view.js";
import { alreadyApplied, ledgerView, notReadyReason, type LedgerEntry } from "../../src/core/waves.js";

const Z = "0da42c8d2132a9ddaf714f9e7c920711";
const RS = "2c0fc9fa937b11eaa1b71c4d701ab86e";
const execute = { action: "execute", expression: "true", description: "Managed", enabled: true, action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee" } };
const config: Ruleset = { name: "default", rules: [{ id: "", version: "", ref: "", ...execute }] };
const at = { file: "main.tf", line: 3 };

function answers(over: Partial<ServiceAnswers> = {}): ServiceAnswers {
  return {
    zoneId: Z,
    check: { compatible: true, migration_state: "start" },
    status: { old_waf_status: "enabled", new_waf_status: "disabled", migration_state: "start" },
    config,
    entrypoint: null,
    calls: [{ operation: "check", fetchedAt: "2026-01-01T00:00:00.000Z", fromCache: true }],
    error: null,
    ...over,
  };
}

function zone(over: Partial<ZoneReport> = {}): ZoneReport {
  return { zoneId: Z, zoneName: null, plan: "pro", compatible: true, migrationMode: "pending", phase1: { eligible: true, reasons: [] }, ruleset: { name: "default", rules: [execute] }, imports: [], stateRemovals: [], ...over } as ZoneReport;
}

describe("migrationStage", () => {
  it("reads check and status conservatively", () => {
    expect(migrationStage(answers())).toBe("start");
    expect(migrationStage({ check: null, status: { old_waf_status: "enabled", new_waf_status: "enabled" } })).toBe("validation");
    expect(migrationStage({ check: { compatible: true, migration_state: "finished" }, status: null })).toBe("finished");
    expect(migrationStage({ check: null, status: { old_waf_status: "disabled", new_waf_status: "enabled" } })).toBe("finished");
    expect(migrationStage({ check: { compatible: true, migration_state: "something_new" }, status: {} })).toBe("unknown");
  });
});

describe("the ruleset and id the analysis uses", () => {
  it("is the service's configuration before the migration, without its empty ids", () => {
    expect(serviceRuleset(answers())).toEqual({ source: "service-config", ruleset: { name: "default", rules: [execute] } });
  });

  it("is the live entry point once migrated, and its id fills the import; explicit flags win", () => {
    const done = answers({ check: { compatible: true, migration_state: "finished" }, entrypoint: { id: RS, name: "default", rules: [{ id: "r1", version: "2", ref: "r1", ...execute }] } });
    expect(serviceRuleset(done)!.ruleset.rules[0]).toEqual({ ref: "r1", ...execute });
    const opts = withServiceAnswers({}, [done]);
    expect(opts.rulesetIds![Z]).toBe(RS);
    const explicit = withServiceAnswers({ rulesetIds: { [Z]: "f".repeat(32) }, configRulesets: { [Z]: { name: "mine", rules: [] } } }, [done]);
    expect([explicit.rulesetIds![Z], explicit.configRulesets![Z]!.name]).toEqual(["f".repeat(32), "mine"]);
  });

  it("a failed zone contributes nothing and says why", () => {
    const failed = answers({ error: "status: HTTP 500" });
    expect(withServiceAnswers({}, [failed]).configRulesets).toEqual({});
    expect(zoneServiceOf(failed)).toMatchObject({ status: "unknown", compatible: null, error: "status: HTTP 500", fromCache: true });
    expect(serviceFindings(zone(), failed, at).map((f) => f.code)).toEqual(["SERVICE_CALL_FAILED"]);
  });
});

describe("serviceFindings", () => {
  it("SERVICE_DISAGREES on compatibility and on the ruleset, each saying on what", () => {
    const f = serviceFindings(zone({ ruleset: { name: "default", rules: [{ ...execute, enabled: false }] } }), answers({ check: { compatible: false, migration_state: "start" } }), at);
    expect(f.map((x) => [x.code, x.details?.on])).toEqual([
      ["SERVICE_DISAGREES", "compatible"],
      ["SERVICE_DISAGREES", "ruleset"],
    ]);
    expect(f[0]!.message).toMatch(/one exists outside Terraform/);
    expect(f.every((x) => x.file === "main.tf" && x.line === 3 && x.severity === "warning")).toBe(true);
  });

  it("no disagreement when the rules decide the same (ids and wording aside)", () => {
    expect(serviceFindings(zone({ ruleset: { name: "default", rules: [{ ...execute, description: "other words" }] } }), answers(), at)).toEqual([]);
    expect(rulesetDifference({ name: "a", rules: [execute] }, { name: "a", rules: [] })).toMatch(/offline rules give 1 rule, the service 0/);
  });

  it("already migrated and in validation are reported as such", () => {
    expect(serviceFindings(zone(), answers({ check: { compatible: true, migration_state: "finished" }, entrypoint: { id: RS, name: "default", rules: [execute] } }), at).map((f) => f.code)).toEqual(["ZONE_ALREADY_MIGRATED"]);
    expect(serviceFindings(zone(), answers({ check: { compatible: true, migration_state: "validation" } }), at).map((f) => f.code)).toEqual(["ZONE_IN_VALIDATION"]);
  });
});

describe("the ledger's view", () => {
  const req = (mode: "pending" | "validation"): LedgerEntry => ({ type: "request", zoneId: Z, mode, at: "t", method: "PUT", url: "u", body: {} });
  it("an accepted mode is never due again; an unanswered or 5xx request is uncertain; a 4xx refusal is not", () => {
    const ok = ledgerView([req("validation"), { type: "answer", zoneId: Z, mode: "validation", at: "t", ok: true, status: 200, rulesetId: RS }]).get(Z);
    expect([alreadyApplied(ok, "validation"), alreadyApplied(ok, "pending"), ok!.rulesetId]).toEqual([true, false, RS]);
    expect(ledgerView([req("pending")]).get(Z)!.uncertain).toBe("pending");
    expect(ledgerView([req("pending"), { type: "answer", zoneId: Z, mode: "pending", at: "t", ok: false, status: 502, rulesetId: null, definitive: false }]).get(Z)!.uncertain).toBe("pending");
    const refused = ledgerView([req("pending"), { type: "answer", zoneId: Z, mode: "pending", at: "t", ok: false, status: 400, rulesetId: null, definitive: true, error: "no" }]).get(Z)!;
    expect([refused.uncertain, refused.refused]).toEqual([null, "no"]);
    const settled = ledgerView([req("pending"), { type: "reconciled", zoneId: Z, mode: "pending", at: "t", applied: true, stage: "finished" }]).get(Z);
    expect(alreadyApplied(settled, "validation")).toBe(true);
  });

  it("a zone is ready only with the service's yes and no blocking finding", () => {
    const report = { schemaVersion: 1 as const, tool: { name: "t", version: "0" }, resources: [], findings: [], errors: [], zones: [] };
    expect(notReadyReason(report, zone())).toMatch(/no service answers/);
    const svc = zoneServiceOf(answers());
    expect(notReadyReason(report, zone({ service: svc }))).toBeNull();
    expect(notReadyReason({ ...report, findings: [{ code: "FIREWALL_RULES_OVER_LIMIT", severity: "error", message: "", zoneId: Z, address: null, file: null, line: null }] }, zone({ service: svc }))).toMatch(/FIREWALL_RULES_OVER_LIMIT/);
    expect(notReadyReason(report, zone({ service: { ...svc, compatible: false } }))).toMatch(/not compatible/);
  });
});

describe("the text report", () => {
  it("says under each zone what the service said and when", async () => {
    const { renderText } = await import("../../src/render/text.js");
    const report = { schemaVersion: 1 as const, tool: { name: "t", version: "0" }, resources: [], findings: [], errors: [], zones: [zone({ service: zoneServiceOf(answers()) })] };
    expect(renderText(report, { color: false, title: "scan" })).toContain(
      "  service: compatible, migration start; ruleset from the service's configuration; answers of 2026-01-01T00:00:00.000Z (cache)",
    );
    const failed = { ...report, zones: [zone({ service: zoneServiceOf(answers({ error: "check: HTTP 500" })) })] };
    expect(renderText(failed, { color: false, title: "scan" })).toContain("  service: not asked successfully (check: HTTP 500)");
  });
});
