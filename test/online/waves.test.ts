// Migration waves against the simulated API (in process): a kill at any point, then reruns, never sends a
// zone's request twice (property over kill points), every ready zone ends migrated, the dry run sends and
// writes nothing, and the first failure stops the wave.
import fc from "fast-check";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/model.js";
import { readAccount, writeAccount } from "../../src/sandbox/account/account.js";
import { openOnlineSession } from "../../src/online/session.js";
import { runWave, SimulatedCrash, summaryLines, type WaveSummary } from "../../src/online/waves.js";
import { estateOnDisk, inProcessApi, onlineReport, session, TOKEN, type EstateDirs, type InProcessApi } from "./helpers.js";

const ZONES = 12;
let dirs: EstateDirs;
let report: Report;
let run = 0;

beforeAll(async () => {
  dirs = estateOnDisk(ZONES);
  report = await onlineReport(dirs.tfDir, session(dirs, inProcessApi(dirs.accountDir, { faults: dirs.estate.faults })));
}, 60_000);
afterAll(() => rmSync(dirs.root, { recursive: true, force: true }));

/** A fresh account (as before any migration) and a fresh ledger for one scenario. */
function fresh(): { sim: InProcessApi; ledger: string } {
  run++;
  const accountDir = path.join(dirs.root, `account-${run}`);
  writeAccount(accountDir, dirs.estate.account);
  return { sim: inProcessApi(accountDir), ledger: path.join(dirs.root, `ledger-${run}.jsonl`) };
}

function client(sim: InProcessApi, fetch: typeof globalThis.fetch = sim.fetch) {
  return openOnlineSession({ baseUrl: "http://127.0.0.1/client/v4", cacheDir: path.join(dirs.root, "cache") }, { env: { CLOUDFLARE_API_TOKEN: TOKEN }, cwd: dirs.root, fetch, now: sim.clock.now, sleep: sim.clock.sleep }).client;
}

const ready = () => dirs.estate.zones.filter((z) => z.kind !== "incompatible" && z.kind !== "migrated");

describe("api migrate --from --ledger", () => {
  it("sends no zone twice whatever the kill points, and every ready zone ends migrated", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }), fc.integer({ min: 1, max: ZONES }), async (kills, waveSize) => {
        const { sim, ledger } = fresh();
        const c = client(sim);
        const pending = [...kills];
        let finish = false;
        for (let i = 0; i < 200; i++) {
          const killAt = pending.shift();
          let events = 0;
          let summary: WaveSummary;
          try {
            summary = await runWave({ report, ledgerPath: ledger, waveSize, finish, yes: true }, { client: c, now: sim.clock.now, log: () => undefined, crash: () => killAt !== undefined && ++events >= killAt });
          } catch (e) {
            if (e instanceof SimulatedCrash) continue;
            throw e;
          }
          expect(summary.stoppedBy).toBeNull();
          if (summary.zones.some((z) => z.outcome === "not-reached" || z.outcome === "sent" || z.outcome === "reconciled")) continue;
          if (!finish) {
            finish = true;
            continue;
          }
          break;
        }
        const puts = sim.api.requests().filter((r) => r.method === "PUT");
        const perZoneMode = new Map<string, number>();
        for (const p of puts) {
          const key = `${p.zoneId} ${/waf_migration=(\w+)/.exec(p.query)![1]}`;
          perZoneMode.set(key, (perZoneMode.get(key) ?? 0) + 1);
        }
        for (const [key, n] of perZoneMode) expect([key, n]).toEqual([key, 1]);
        const account = readAccount(path.join(dirs.root, `account-${run}`));
        for (const z of ready()) expect([z.id, account.zones[z.id]!.migration_state]).toEqual([z.id, "finished"]);
        // Enterprise zones went through validation first; the others straight to pending.
        for (const z of ready()) expect(perZoneMode.has(`${z.id} validation`)).toBe(z.kind === "enterprise");
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("a request written without an answer is settled by the zone's status, not sent again", async () => {
    const { sim, ledger } = fresh();
    const c = client(sim);
    // Killed right after the first request reached the service (its answer never written).
    await expect(runWave({ report, ledgerPath: ledger, waveSize: 1, finish: false, yes: true }, { client: c, now: sim.clock.now, log: () => undefined, crash: (p) => p === "sent" })).rejects.toBeInstanceOf(SimulatedCrash);
    const first = readFileSync(ledger, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; zoneId: string });
    expect(first.map((e) => e.type)).toEqual(["request"]);
    const summary = await runWave({ report, ledgerPath: ledger, waveSize: 1, finish: false, yes: true }, { client: c, now: sim.clock.now, log: () => undefined });
    expect(summary.zones.find((z) => z.zoneId === first[0]!.zoneId)!.outcome).toBe("reconciled");
    expect(sim.api.requests().filter((r) => r.method === "PUT" && r.zoneId === first[0]!.zoneId)).toHaveLength(1);
    const lines = readFileSync(ledger, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; applied?: boolean });
    expect(lines[1]).toMatchObject({ type: "reconciled", applied: true });
  });

  it("a torn last line (killed inside a write) is skipped and the next entry starts on its own line", async () => {
    const { sim, ledger } = fresh();
    writeFileSync(ledger, '{"type":"request","zoneId":"e57a7e00000');
    const summary = await runWave({ report, ledgerPath: ledger, waveSize: 1, finish: false, yes: true }, { client: client(sim), now: sim.clock.now, log: () => undefined });
    expect(summary.counts.sent).toBe(1);
    const lines = readFileSync(ledger, "utf8").split("\n");
    expect(() => JSON.parse(lines[1]!)).not.toThrow();
  });

  it("without --yes sends and writes nothing, and lists exactly the requests it would send", async () => {
    const { sim, ledger } = fresh();
    const summary = await runWave({ report, ledgerPath: ledger, waveSize: 3, finish: false, yes: false }, { client: client(sim), now: sim.clock.now, log: () => undefined });
    expect(sim.api.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(() => readFileSync(ledger)).toThrow();
    const wouldSend = summary.zones.filter((z) => z.outcome === "would-send");
    expect(wouldSend).toHaveLength(3);
    for (const z of wouldSend) {
      expect(z.request!.method).toBe("PUT");
      expect(z.request!.url).toBe(`http://127.0.0.1/client/v4/zones/${z.zoneId}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${z.mode}&phase_two=1`);
      expect((z.request!.body as { rules: unknown[] }).rules.length).toBeGreaterThan(0);
    }
    expect(summaryLines(summary).at(-1)).toMatch(/^dry run: 0 sent, 3 would be sent/);
  });

  it("the first failure stops the wave; the zones after it are not sent", async () => {
    const { sim, ledger } = fresh();
    const target = ready()[1]!.id;
    const failing = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      if (init?.method === "PUT" && String(input).includes(target)) return new Response(JSON.stringify({ success: false, result: null, errors: [{ code: 10000, message: "boom" }], messages: [] }), { status: 400 });
      return sim.fetch(input, init);
    }) as typeof fetch;
    const summary = await runWave({ report, ledgerPath: ledger, waveSize: ZONES, finish: false, yes: true }, { client: client(sim, failing), now: sim.clock.now, log: () => undefined });
    expect(summary.stoppedBy).toBe(target);
    const order = summary.zones.map((z) => [z.zoneId, z.outcome]);
    const at = order.findIndex(([id]) => id === target);
    expect(order[at]![1]).toBe("failed");
    expect(order.slice(at + 1).filter(([, o]) => o === "sent")).toEqual([]);
    expect(order.slice(at + 1).some(([, o]) => o === "not-reached")).toBe(true);
    // A definitive refusal (4xx) is recorded as such: the zone may be sent again once the cause is fixed.
    const last = readFileSync(ledger, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).at(-1)!;
    expect(last).toMatchObject({ type: "answer", zoneId: target, ok: false, status: 400, definitive: true });
  });
});
