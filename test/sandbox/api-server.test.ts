// The simulated API (src/sandbox/api) driven by the tool's own `api` command, on an account file the
// provider double would share: the equivalent configuration, pending and validation migrations, their
// irreversibility, the entry point, auth and the envelope; and CLOUDFLARE_BASE_URL as the command's default.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../src/sandbox/api/server.js";
import { readAccount, writeAccount, type Account } from "../../src/sandbox/account/account.js";
import { runApi } from "../api/helpers.js";

const TOKEN = "sandbox-token-4f7c1e9b2a";
const PRO = "5c1d0b3a9e8f7a6b5c4d3e2f1a0b9c8d";
const ENT = "7e6d5c4b3a29181716151413121110ff";
const OVERRIDDEN = "0123456789abcdef0123456789abcdef";
const OWASP_PKG = "a25a9a7e9c00afc1fb2e0245519d725b";
const FILTER = "f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1";
const EP = "/rulesets/phases/http_request_firewall_managed/entrypoint";

function account(): Account {
  const owasp = (zone: string, sensitivity: string, action: string) => ({
    id: OWASP_PKG,
    name: "OWASP ModSecurity Core Rule Set",
    detection_mode: "anomaly" as const,
    sensitivity,
    action_mode: action,
    default_sensitivity: "high",
    default_action_mode: "challenge",
    zone,
  });
  return {
    zones: {
      [PRO]: {
        id: PRO,
        name: "shop.example",
        plan: "pro",
        settings: { waf: "on" },
        waf: { packages: [owasp(PRO, "low", "simulate")] },
        objects: {
          cloudflare_filter: { [FILTER]: { id: FILTER, zone_id: PRO, expression: '(ip.src in {192.0.2.0/24} and http.request.uri.path eq "/health")' } },
          cloudflare_firewall_rule: {
            r1: { id: "r1", zone_id: PRO, filter_id: FILTER, action: "bypass", products: ["waf"], priority: 1, description: "monitoring" },
            r2: { id: "r2", zone_id: PRO, filter_id: FILTER, action: "block", priority: 2 },
          },
          cloudflare_page_rule: {
            p1: { id: "p1", zone_id: PRO, target: "shop.example/admin/*", priority: 1, status: "active", actions: { waf: "off" } },
          },
        },
      },
      [ENT]: { id: ENT, name: "bank.example", plan: "enterprise", waf: { packages: [owasp(ENT, "high", "block")] } },
      [OVERRIDDEN]: { id: OVERRIDDEN, name: "legacy.example", plan: "business", waf: { overrides: { o1: { id: "o1", urls: ["legacy.example/*"] } } } },
    },
  };
}

let dir: string;
let api: ApiServer;
let env: Record<string, string>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "cf-sandbox-api-"));
  writeAccount(dir, account());
  api = await startApiServer({ accountDir: dir, credentials: { token: TOKEN } });
  env = { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: api.baseUrl };
});
afterEach(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const json = (s: string) => JSON.parse(s) as Record<string, any>;
async function entrypoint(zone: string): Promise<Record<string, any>> {
  const res = await fetch(`${api.baseUrl}/zones/${zone}${EP}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  const body = (await res.json()) as { success: boolean; result: Record<string, any> };
  expect(body.success).toBe(true);
  return body.result;
}

describe("simulated API: waf_migration on the shared account", () => {
  it("listens on 127.0.0.1 under /client/v4", () => {
    expect(api.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
  });

  it("check and config: the configuration is the equivalent of the zone's previous-WAF settings", async () => {
    const check = await runApi(["check", "--zone", PRO, "--format", "json"], { env });
    expect(check.exitCode).toBe(0);
    expect(json(check.stdout)).toEqual({ compatible: true, migration_state: "start" });

    const res = await runApi(["config", "--zone", PRO, "--format", "json"], { env });
    expect(res.exitCode).toBe(0);
    const config = json(res.stdout);
    expect(config.name).toBe("default");
    const rules = config.rules as Record<string, any>[];
    // Only the bypass firewall rule and the WAF-off Page Rule become skip rules, then the two managed rulesets.
    expect(rules.map((r) => r.action)).toEqual(["skip", "skip", "execute", "execute"]);
    expect(rules[0]!.expression).toBe('(ip.src in {192.0.2.0/24} and http.request.uri.path eq "/health")');
    expect(rules[1]!.expression).toContain('r"/admin/*"');
    for (const rule of rules) expect([rule.id, rule.version, rule.ref]).toEqual(["", "", ""]);
    // Low sensitivity → PL1, threshold 40 (spec's mapping table); Simulate becomes Log.
    const owasp = rules[3]!.action_parameters;
    expect(owasp.id).toBe("4814384a9e5d4991b9815dcfc25d2f1f");
    expect(owasp.overrides.rules[0]).toMatchObject({ action: "log", score_threshold: 40 });
    expect(owasp.overrides.categories.map((c: { category: string }) => c.category)).toContain("paranoia-level-2");
  });

  it("pending migration (Pro): the entry point holds the configuration, the previous WAF is retired, and there is no way back", async () => {
    const before = json((await runApi(["config", "--zone", PRO, "--format", "json"], { env })).stdout);
    const res = await runApi(["migrate", "--zone", PRO, "--mode", "pending", "--yes", "--format", "json"], { env });
    expect(res.exitCode).toBe(0);

    const zone = readAccount(dir).zones[PRO]!;
    expect(zone.migrated).toBe(true);
    expect(zone.migration_state).toBe("finished");
    const summary = json((await runApi(["entrypoint", "--zone", PRO, "--format", "json"], { env })).stdout);
    expect(summary.importId).toMatch(new RegExp(`^zone/${PRO}/[0-9a-f]{32}$`));
    const entry = await entrypoint(PRO);
    expect(entry.id).toBe(summary.rulesetId);
    expect(zone.rulesets?.[entry.id]).toMatchObject({ kind: "zone", phase: "http_request_firewall_managed" });
    const strip = (r: Record<string, unknown>) => {
      const { id: _i, version: _v, ref: _r, ...rest } = r;
      return rest;
    };
    expect((entry.rules as Record<string, unknown>[]).map(strip)).toEqual((before.rules as Record<string, unknown>[]).map(strip));
    for (const rule of entry.rules as Record<string, string>[]) expect(rule.id).toMatch(/^[0-9a-f]{32}$/);

    const status = json((await runApi(["status", "--zone", PRO, "--format", "json"], { env })).stdout);
    expect(status).toEqual({ old_waf_status: "disabled", new_waf_status: "enabled", migration_state: "finished" });

    const again = await runApi(["migrate", "--zone", PRO, "--mode", "pending", "--yes"], { env });
    expect(again.exitCode).not.toBe(0);
    expect(again.stderr).toContain("already been migrated");
    expect(readAccount(dir).zones[PRO]!.rulesets?.[entry.id]).toEqual(zone.rulesets?.[entry.id]);
  });

  it("validation mode (Enterprise): both WAFs on, legacy still readable; pending then finishes", async () => {
    const res = await runApi(["migrate", "--zone", ENT, "--mode", "validation", "--yes"], { env });
    expect(res.exitCode).toBe(0);
    let zone = readAccount(dir).zones[ENT]!;
    expect(zone.migration_state).toBe("validation");
    expect(zone.migrated).not.toBe(true);
    const status = json((await runApi(["status", "--zone", ENT, "--format", "json"], { env })).stdout);
    expect(status).toEqual({ old_waf_status: "enabled", new_waf_status: "enabled", migration_state: "validation" });
    const first = await entrypoint(ENT);

    const finish = await runApi(["migrate", "--zone", ENT, "--mode", "pending", "--yes"], { env });
    expect(finish.exitCode).toBe(0);
    zone = readAccount(dir).zones[ENT]!;
    expect(zone.migrated).toBe(true);
    // The same entry point ruleset, updated: no second one for the phase.
    const second = await entrypoint(ENT);
    expect(second.id).toBe(first.id);
    expect(Object.keys(zone.rulesets ?? {})).toEqual([first.id]);
  });

  it("refuses validation mode for a Pro zone and a zone with URI-based overrides, changing nothing", async () => {
    const before = readFileSync(join(dir, "account.json"), "utf8");
    const validation = await runApi(["migrate", "--zone", PRO, "--mode", "validation", "--zone-plan", "enterprise", "--yes"], { env });
    expect(validation.exitCode).not.toBe(0);
    expect(validation.stderr).toContain("Enterprise zones only");
    const check = await runApi(["check", "--zone", OVERRIDDEN, "--format", "json"], { env });
    expect(json(check.stdout).compatible).toBe(false);
    const res = await fetch(`${api.baseUrl}/zones/${OVERRIDDEN}${EP}?waf_migration=pending&phase_two=1`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "default", rules: [] }),
    });
    expect(res.status).toBe(400);
    expect(readFileSync(join(dir, "account.json"), "utf8")).toBe(before);
  });

  it("answers 401 in the API envelope without the right credentials, and 404 for an unknown zone", async () => {
    const bad = await fetch(`${api.baseUrl}/zones/${PRO}`, { headers: { Authorization: "Bearer wrong" } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ result: null, success: false, errors: [{ code: 10000, message: "Authentication error" }], messages: [] });
    const zone = await fetch(`${api.baseUrl}/zones/${PRO}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(await zone.json()).toMatchObject({ success: true, result: { id: PRO, name: "shop.example", plan: { legacy_id: "pro" } } });
    const missing = await fetch(`${api.baseUrl}/zones/${"f".repeat(32)}${EP}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(missing.status).toBe(404);
  });
});

describe("CLOUDFLARE_BASE_URL", () => {
  it("is the api commands' base URL when --base-url is not given, and --base-url wins over it", async () => {
    const viaEnv = await runApi(["check", "--zone", PRO, "--format", "json"], { env });
    expect(viaEnv.exitCode).toBe(0);
    const other = await startApiServer({ accountDir: dir, credentials: { token: TOKEN } });
    try {
      const logged: string[] = [];
      const logging = await startApiServer({ accountDir: dir, credentials: { token: TOKEN }, log: (l) => logged.push(l) });
      try {
        const res = await runApi(["check", "--zone", PRO, "--format", "json", "--base-url", logging.baseUrl], { env: { ...env, CLOUDFLARE_BASE_URL: other.baseUrl } });
        expect(res.exitCode).toBe(0);
        expect(logged).toEqual([`GET /client/v4/zones/${PRO}/waf_migration/check?phase_two=1 200`]);
      } finally {
        await logging.close();
      }
    } finally {
      await other.close();
    }
  });

  it("a bad value is an input error that names the variable", async () => {
    const res = await runApi(["check", "--zone", PRO], { env: { ...env, CLOUDFLARE_BASE_URL: "http://api.example.net/client/v4" } });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("CLOUDFLARE_BASE_URL: base URL must use https");
  });
});
