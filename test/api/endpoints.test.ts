import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ApiError,
  checkCompatibility,
  createApiClient,
  getEntrypoint,
  getMigrationConfig,
  getMigrationStatus,
  getZone,
  isMigrationDone,
  migrationRequestBody,
  patchCustomHostnameCa,
  putEntrypoint,
  waitForMigration,
  zonePlanOf,
  type ApiClient,
} from "../../src/api/index.js";
import type { Ruleset } from "../../src/core/model.js";
import { HOSTNAME_ID, sampleConfig, sampleZones, startFakeCloudflare, ZONE_ENT, ZONE_PRO, type FakeCloudflare } from "../support/fake-cloudflare.js";
import { EMAIL, KEY, TOKEN, fakeClock } from "./helpers.js";

const EP = "/rulesets/phases/http_request_firewall_managed/entrypoint";

let fake: FakeCloudflare;
let client: ApiClient;
beforeEach(async () => {
  fake = await startFakeCloudflare({ zones: sampleZones(), credentials: { token: TOKEN, email: EMAIL, key: KEY } });
  client = createApiClient({ env: { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY }, baseUrl: fake.baseUrl, sleep: async () => {} });
});
afterEach(async () => {
  await fake.close();
});

function only() {
  expect(fake.requests).toHaveLength(1);
  return fake.requests[0];
}

describe("endpoints: method, path, query, headers, body", () => {
  it("checkCompatibility: GET …/waf_migration/check?phase_two=1", async () => {
    expect(await checkCompatibility(client, ZONE_PRO)).toEqual({ compatible: true, migration_state: "start" });
    const r = only();
    expect([r.method, r.path, r.query, r.body]).toEqual(["GET", `/zones/${ZONE_PRO}/waf_migration/check`, { phase_two: "1" }, ""]);
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers["x-auth-key"]).toBeUndefined();
  });

  it("getMigrationConfig: GET …/waf_migration/config?phase_two=1 returns the ruleset as sent", async () => {
    expect(await getMigrationConfig(client, ZONE_PRO)).toEqual(sampleConfig());
    const r = only();
    expect([r.method, r.path, r.query]).toEqual(["GET", `/zones/${ZONE_PRO}/waf_migration/config`, { phase_two: "1" }]);
  });

  it("getMigrationStatus: GET …/waf_migration/status without query", async () => {
    expect(await getMigrationStatus(client, ZONE_PRO)).toEqual({ old_waf_status: "enabled", new_waf_status: "disabled", migration_state: "start" });
    const r = only();
    expect([r.method, r.path, r.query]).toEqual(["GET", `/zones/${ZONE_PRO}/waf_migration/status`, {}]);
  });

  it("getZone: GET /zones/{id}; the plan comes from plan.legacy_id", async () => {
    const zone = await getZone(client, ZONE_ENT);
    expect(zonePlanOf(zone)).toBe("enterprise");
    expect(zonePlanOf({ id: "x", plan: { legacy_id: "Business" } })).toBe("business");
    expect(zonePlanOf({ id: "x" })).toBe("unknown");
    const r = only();
    expect([r.method, r.path, r.query]).toEqual(["GET", `/zones/${ZONE_ENT}`, {}]);
  });

  it("putEntrypoint pending: the configuration as returned, id/version/ref kept", async () => {
    const result = (await putEntrypoint(client, ZONE_PRO, "pending", sampleConfig())) as Record<string, unknown>;
    expect(result.id).toBe("e".repeat(32));
    const r = only();
    expect(r.method).toBe("PUT");
    expect(r.path).toBe(`/zones/${ZONE_PRO}${EP}`);
    expect(r.query).toEqual({ waf_migration: "pending", phase_two: "1" });
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.json).toEqual(sampleConfig());
  });

  it("putEntrypoint validation: id, version and ref omitted from each rule", async () => {
    await putEntrypoint(client, ZONE_ENT, "validation", sampleConfig());
    const r = only();
    expect(r.query).toEqual({ waf_migration: "validation", phase_two: "1" });
    const { id: _i, version: _v, ref: _r, ...rule } = sampleConfig().rules[0];
    expect(r.json).toEqual({ name: "default", rules: [rule] });
    expect(Object.keys((r.json as Ruleset).rules[0])).not.toContain("id");
  });

  it("getEntrypoint: GET …/entrypoint; 404 before the migration", async () => {
    const err = await getEntrypoint(client, ZONE_ENT).catch((e: unknown) => e as ApiError);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    await putEntrypoint(client, ZONE_ENT, "pending", sampleConfig());
    const ep = await getEntrypoint(client, ZONE_ENT);
    expect(ep.id).toBe("4814384a9e5d4991b9815dcfc25d2f1f");
    expect(ep.rules).toHaveLength(1);
    const r = fake.requests[2];
    expect([r.method, r.path, r.query, r.body]).toEqual(["GET", `/zones/${ZONE_ENT}${EP}`, {}, ""]);
  });

  it("patchCustomHostnameCa: PATCH with e-mail + key and the ssl body; default is the empty string", async () => {
    await patchCustomHostnameCa(client, ZONE_PRO, HOSTNAME_ID, "default");
    await patchCustomHostnameCa(client, ZONE_PRO, HOSTNAME_ID, "google");
    await patchCustomHostnameCa(client, ZONE_PRO, HOSTNAME_ID, "ssl_com");
    expect(fake.requests.map((r) => r.json)).toEqual([
      { ssl: { method: "txt", type: "dv", certificate_authority: "" } },
      { ssl: { method: "txt", type: "dv", certificate_authority: "google" } },
      { ssl: { method: "txt", type: "dv", certificate_authority: "ssl_com" } },
    ]);
    for (const r of fake.requests) {
      expect(r.method).toBe("PATCH");
      expect(r.path).toBe(`/zones/${ZONE_PRO}/custom_hostnames/${HOSTNAME_ID}`);
      expect(r.query).toEqual({});
      expect(r.headers["x-auth-email"]).toBe(EMAIL);
      expect(r.headers["x-auth-key"]).toBe(KEY);
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers["content-type"]).toBe("application/json");
    }
  });

  it("rejects results of the wrong shape", async () => {
    fake.inject({ path: `/zones/${ZONE_PRO}/waf_migration/check` }, { type: "http", status: 200, body: JSON.stringify({ success: true, result: { compatible: "yes" }, errors: [], messages: [] }) });
    await expect(checkCompatibility(client, ZONE_PRO)).rejects.toThrow('unexpected response: result has no boolean "compatible"');
    fake.inject({ path: `/zones/${ZONE_PRO}/waf_migration/config` }, { type: "http", status: 200, body: JSON.stringify({ success: true, result: { rules: "x" }, errors: [], messages: [] }) });
    await expect(getMigrationConfig(client, ZONE_PRO)).rejects.toThrow("result is not a ruleset");
  });
});

describe("migration body and polling", () => {
  it("migrationRequestBody does not change its input", () => {
    const config = sampleConfig();
    const body = migrationRequestBody(config, "validation");
    expect(body.rules[0].id).toBeUndefined();
    expect(config.rules[0].id).toBe("");
    expect(migrationRequestBody(config, "pending")).toEqual(config);
  });

  it("isMigrationDone reads the unofficial status fields conservatively", () => {
    expect(isMigrationDone({ old_waf_status: "enabled", new_waf_status: "disabled", migration_state: "start" }, "pending")).toBe(false);
    expect(isMigrationDone({ old_waf_status: "disabled", new_waf_status: "enabled", migration_state: "finished" }, "pending")).toBe(true);
    expect(isMigrationDone({ old_waf_status: "enabled", new_waf_status: "enabled", migration_state: "validation" }, "validation")).toBe(true);
    expect(isMigrationDone({ old_waf_status: "enabled", new_waf_status: "enabled", migration_state: "validation" }, "pending")).toBe(false);
    expect(isMigrationDone({ migration_state: "done" }, "pending")).toBe(true);
    expect(isMigrationDone({ migration_state: "pending" }, "pending")).toBe(false);
    expect(isMigrationDone({}, "pending")).toBe(false);
  });

  it("waitForMigration polls until done, and stops at the timeout", async () => {
    fake.zones.get(ZONE_PRO)!.statusLag = 2;
    await putEntrypoint(client, ZONE_PRO, "pending", sampleConfig());
    const clock = fakeClock();
    const polls: boolean[] = [];
    const done = await waitForMigration({ client, zoneId: ZONE_PRO, mode: "pending", intervalMs: 1000, timeoutMs: 60_000, sleep: clock.sleep, now: clock.now, onPoll: (p) => polls.push(p.done) });
    expect(done).toMatchObject({ done: true, polls: 3, elapsedMs: 2000 });
    expect(polls).toEqual([false, false, true]);

    const stuck = await waitForMigration({ client, zoneId: ZONE_ENT, mode: "pending", intervalMs: 1000, timeoutMs: 3_500, sleep: clock.sleep, now: clock.now });
    expect(stuck).toMatchObject({ done: false, polls: 4 });
    // Bounded by count even when sleep does not move the clock.
    const frozen = await waitForMigration({ client, zoneId: ZONE_ENT, mode: "pending", intervalMs: 1000, timeoutMs: 3_500, sleep: async () => {}, now: () => 0 });
    expect(frozen.polls).toBe(4);
  });
});
