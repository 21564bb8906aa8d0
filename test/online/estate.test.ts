// `--online` over a 300-zone estate against the simulated API (in process, fake clock): every zone
// answered despite 500s and 429s, the service's limit never exceeded in any 5-minute window, the report
// carries zones[].service and the service's findings, and a second run within --max-age sends nothing.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { maxInAnyWindow } from "../../src/sandbox/api/faults.js";
import { SERVICE_REQUEST_LIMIT, SERVICE_WINDOW_MS } from "../../src/online/limiter.js";
import path from "node:path";
import { openOnlineSession } from "../../src/online/session.js";
import { estateOnDisk, inProcessApi, onlineReport, session, TOKEN, type EstateDirs, type InProcessApi } from "./helpers.js";

const ZONES = 300;

describe("scan --online over a 300-zone estate", () => {
  let dirs: EstateDirs;
  let sim: InProcessApi;
  let report: Report;
  let firstRunRequests = 0;
  let firstRunMs = 0;
  const logs: string[] = [];

  beforeAll(async () => {
    dirs = estateOnDisk(ZONES);
    // The service's own limiter is on: any request past 1,200 in 5 minutes would come back 429.
    sim = inProcessApi(dirs.accountDir, { faults: dirs.estate.faults, rateLimit: { requests: SERVICE_REQUEST_LIMIT, windowMs: SERVICE_WINDOW_MS } });
    const start = sim.clock.now();
    report = await onlineReport(dirs.tfDir, session(dirs, sim, {}, (l) => logs.push(l)));
    firstRunMs = sim.clock.now() - start;
    firstRunRequests = sim.api.requests().length;
  }, 120_000);
  afterAll(() => rmSync(dirs.root, { recursive: true, force: true }));

  it("answers every zone, the faulty ones after their retries", () => {
    expect(report.zones).toHaveLength(ZONES);
    for (const z of report.zones) {
      expect(z.service, z.zoneId).toBeDefined();
      expect(z.service!.error, z.zoneId).toBeUndefined();
    }
    const byKind = new Map(dirs.estate.zones.map((z) => [z.id, z.kind]));
    const zone = (kind: string) => report.zones.filter((z) => byKind.get(z.zoneId) === kind);
    for (const z of zone("incompatible")) expect([z.service!.compatible, z.compatible]).toEqual([false, true]);
    for (const z of zone("migrated")) {
      expect(z.service!.status).toBe("finished");
      expect(z.service!.rulesetSource).toBe("entrypoint");
      expect(z.imports[0]!.id).toBe(`zone/${z.zoneId}/${z.service!.rulesetId}`);
    }
    for (const z of zone("enterprise")) expect([z.plan, z.migrationMode]).toEqual(["enterprise", "validation"]);
    for (const z of zone("plain")) {
      expect(z.service!.status).toBe("start");
      expect(z.service!.rulesetSource).toBe("service-config");
      expect(z.imports[0]!.id).toContain("<RULESET_ID>");
    }
    // The 500 and the 429 each cost one retry, nothing more.
    const statuses = sim.api.requests().map((r) => r.status);
    expect(statuses.filter((s) => s === 500)).toHaveLength(zone("flaky").length);
    expect(statuses.filter((s) => s === 429)).toHaveLength(zone("rate-limited").length);
  });

  it("reports what the service says where it differs from the files", () => {
    const codes = (zoneId: string) => report.findings.filter((f) => f.zoneId === zoneId).map((f) => f.code);
    for (const z of dirs.estate.zones) {
      if (z.kind === "incompatible") expect(codes(z.id)).toContain("SERVICE_DISAGREES");
      if (z.kind === "migrated") expect(codes(z.id)).toContain("ZONE_ALREADY_MIGRATED");
      // The service's configuration maps the managed group exactly: no unmapped override left.
      expect(codes(z.id)).not.toContain("MANAGED_OVERRIDE_UNMAPPED");
    }
    const disagree = report.findings.find((f) => f.code === "SERVICE_DISAGREES")!;
    expect(disagree.file).toBe("main.tf");
    expect(disagree.message).toMatch(/^compatibility: /);
  });

  it("stays under 1,200 requests in every 5-minute window, and says how long the estate took", () => {
    const times = sim.api.requests().map((r) => r.at);
    expect(maxInAnyWindow(times, SERVICE_WINDOW_MS)).toBeLessThanOrEqual(SERVICE_REQUEST_LIMIT);
    // Calls per zone: check + status + zone (the plan Terraform does not say) + config or entry point.
    const perZone = firstRunRequests / ZONES;
    expect(perZone).toBeGreaterThanOrEqual(4);
    expect(perZone).toBeLessThanOrEqual(4.2);
    console.log(`figures: ${ZONES} zones, ${firstRunRequests} requests (${perZone.toFixed(2)} per zone), ${(firstRunMs / 1000).toFixed(1)} s of simulated time at the real limit`);
  });

  it("a second run within --max-age sends nothing and says the answers came from the cache", async () => {
    const again = await onlineReport(dirs.tfDir, session(dirs, sim));
    expect(sim.api.requests().length).toBe(firstRunRequests);
    for (const z of again.zones) {
      expect(z.service!.fromCache).toBe(true);
      expect(z.service!.fetchedAt).toBe(report.zones.find((r) => r.zoneId === z.zoneId)!.service!.fetchedAt);
    }
    expect(again.zones.map((z) => z.imports)).toEqual(report.zones.map((z) => z.imports));
  }, 60_000);

  it("a second uncached run waits for the window instead of tripping the service's limiter; a zone whose calls keep failing is reported with the reason while the rest completes", async () => {
    const broken = dirs.estate.zones[2]!.id;
    const failing = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
      String(input).includes(`/zones/${broken}/waf_migration/status`)
        ? new Response(JSON.stringify({ success: false, result: null, errors: [{ code: 10000, message: "upstream unavailable" }], messages: [] }), { status: 503 })
        : sim.fetch(input, init)) as typeof fetch;
    // --max-age 0: every answer fetched again; with the first run that is well over 1,200 in 5 minutes.
    const s = openOnlineSession(
      { baseUrl: "http://127.0.0.1/client/v4", cacheDir: path.join(dirs.root, "cache"), maxAge: "0" },
      { env: { CLOUDFLARE_API_TOKEN: TOKEN }, cwd: dirs.root, fetch: failing, now: sim.clock.now, sleep: sim.clock.sleep },
    );
    const before = sim.clock.now();
    const r = await onlineReport(dirs.tfDir, s);

    const all = sim.api.requests();
    expect(maxInAnyWindow(all.map((x) => x.at), SERVICE_WINDOW_MS)).toBeLessThanOrEqual(SERVICE_REQUEST_LIMIT);
    // Only the zones' own scripted 429s: the service's limiter never answered one.
    expect(all.filter((x) => x.status === 429)).toHaveLength(dirs.estate.zones.filter((z) => z.kind === "rate-limited").length);
    expect(sim.clock.now() - before).toBeGreaterThanOrEqual(SERVICE_WINDOW_MS - 60_000);
    console.log(`figures: second uncached run waited ${((sim.clock.now() - before) / 1000).toFixed(1)} s of simulated time (${all.length} requests in all)`);

    const zone = r.zones.find((z) => z.zoneId === broken)!;
    expect(zone.service!.error).toMatch(/^status: GET \/zones\/[0-9a-f]{32}\/waf_migration\/status.*HTTP 503.*upstream unavailable/);
    expect(zone.imports[0]!.id).toContain("<RULESET_ID>");
    const f = r.findings.find((x) => x.zoneId === broken && x.code === "SERVICE_CALL_FAILED")!;
    expect(f.message).toMatch(/upstream unavailable/);
    expect(r.zones.filter((z) => z.service && !z.service.error)).toHaveLength(ZONES - 1);
  }, 120_000);
});
