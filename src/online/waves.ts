// `api migrate --from REPORT.json --ledger FILE`: migrates the zones the report shows ready, one wave of
// --wave-size zones per run, one zone at a time. Before each zone a fresh check; the request goes to the
// ledger (fsynced) before it is sent and the answer after, so a rerun never sends a zone twice: zones the
// ledger shows done are skipped, and a request left without a clear answer is settled by reading the
// zone's status, never by sending it again blindly. The first failure stops the wave. Without --yes
// nothing is written or sent: the run prints exactly the requests it would send.

import type { ApiClient, RequestPreview } from "../api/client.js";
import { checkCompatibility, getMigrationConfig, getMigrationStatus, putEntrypointRequest } from "../api/endpoints.js";
import { ApiError } from "../api/errors.js";
import type { MigrationMode, Report, ZoneReport } from "../core/model.js";
import { migrationStage } from "../core/service-view.js";
import { alreadyApplied, ledgerView, notReadyReason, uniqueZones, type LedgerEntry, type ZoneLedger } from "../core/waves.js";
import { appendLedger, endLedgerWithNewline, readLedger } from "./ledger.js";

export type ZoneOutcome =
  | "sent" // the service accepted the request
  | "would-send" // dry run
  | "done-earlier" // the ledger shows it applied
  | "reconciled" // an unanswered request turned out applied (status read)
  | "not-ready" // the report or the fresh check says no
  | "failed" // the request or a read failed: the wave stopped here
  | "not-reached"; // after the wave's size or its stop

export interface ZoneSummary {
  zoneId: string;
  outcome: ZoneOutcome;
  mode: MigrationMode | null;
  rulesetId?: string | null;
  reason?: string;
  request?: RequestPreview;
}

export interface WaveSummary {
  dryRun: boolean;
  finish: boolean;
  waveSize: number;
  ledger: string;
  /** Requests sent in this run (migration PUTs only). */
  sent: number;
  stoppedBy: string | null;
  zones: ZoneSummary[];
  counts: Partial<Record<ZoneOutcome, number>>;
}

export interface WaveOptions {
  report: Report;
  ledgerPath: string;
  waveSize: number;
  /** Forces a mode; default: the report's migrationMode per zone (validation for Enterprise). */
  mode?: MigrationMode;
  /** Send pending for the zones the ledger shows in validation. */
  finish: boolean;
  yes: boolean;
}

export interface WaveDeps {
  client: ApiClient;
  now: () => number;
  /** Progress lines (already redacted by the caller's output). */
  log: (line: string) => void;
  /** After a zone's request is answered: forget its cached answers (they are stale now). */
  onZoneChanged?: (zoneId: string) => Promise<void>;
  /**
   * Test hook standing in for a kill: called after every ledger write ("write") and after every request
   * reached the service but before its answer is written ("sent"); returning true stops the run there.
   */
  crash?: (point: "write" | "sent") => boolean;
}

/** Thrown by the crash hook: the run stops as if killed (nothing after the point happens). */
export class SimulatedCrash extends Error {
  constructor(point: string) {
    super(`simulated crash after ${point}`);
  }
}

export async function runWave(opts: WaveOptions, deps: WaveDeps): Promise<WaveSummary> {
  if (!Number.isInteger(opts.waveSize) || opts.waveSize < 1) throw new RangeError(`--wave-size must be a whole number of at least 1, got ${opts.waveSize}`);
  const ledgerFile = readLedger(opts.ledgerPath);
  for (const d of ledgerFile.damaged) deps.log(`${opts.ledgerPath}:${d.line}: ${d.reason}; the line is ignored`);
  const view = ledgerView(ledgerFile.entries);
  const redact = deps.client.redact;
  if (opts.yes) endLedgerWithNewline(opts.ledgerPath);
  const write = (entry: LedgerEntry): void => {
    if (!opts.yes) return;
    appendLedger(opts.ledgerPath, entry, redact);
    if (deps.crash?.("write")) throw new SimulatedCrash("a ledger write");
  };
  const at = (): string => new Date(deps.now()).toISOString();

  const summary: WaveSummary = { dryRun: !opts.yes, finish: opts.finish, waveSize: opts.waveSize, ledger: opts.ledgerPath, sent: 0, stoppedBy: null, zones: [], counts: {} };
  let started = 0;
  for (const zone of candidates(opts, view)) {
    const zoneId = zone.zoneId.toLowerCase();
    const mode: MigrationMode = opts.finish ? "pending" : (opts.mode ?? zone.migrationMode);
    const record = (s: Omit<ZoneSummary, "zoneId" | "mode">): void => void summary.zones.push({ zoneId, mode, ...s });
    const ledger = view.get(zoneId);
    if (alreadyApplied(ledger, mode)) {
      record({ outcome: "done-earlier", rulesetId: ledger?.rulesetId ?? null, reason: `the ledger shows ${[...ledger!.applied].join(" and ")} applied` });
      continue;
    }
    const reason = opts.finish ? null : notReadyReason(opts.report, zone);
    if (reason !== null) {
      record({ outcome: "not-ready", reason });
      continue;
    }
    if (!opts.finish && mode === "validation" && zone.plan !== "enterprise") {
      record({ outcome: "not-ready", reason: `validation mode is for Enterprise zones only; the zone is on ${zone.plan === "unknown" ? "a plan the report does not know" : `the ${zone.plan} plan`}` });
      continue;
    }
    if (summary.stoppedBy !== null || started >= opts.waveSize) {
      record({ outcome: "not-reached" });
      continue;
    }
    started++;
    try {
      if (ledger?.uncertain) {
        // An earlier run sent a request and got no clear answer: the status says whether it was applied.
        const applied = await settleUncertain(zoneId, ledger, deps.client);
        write({ type: "reconciled", zoneId, mode: ledger.uncertain, at: at(), applied: applied.applied, stage: applied.stage });
        if (applied.applied && alreadyApplied({ ...ledger, applied: new Set([...ledger.applied, ledger.uncertain]) }, mode)) {
          record({ outcome: "reconciled", reason: `an earlier request was applied (status: ${applied.stage})` });
          await deps.onZoneChanged?.(zoneId);
          continue;
        }
      }
      const check = await checkCompatibility(deps.client, zoneId);
      const stage = migrationStage({ check: { compatible: check.compatible, migration_state: check.migration_state }, status: null });
      if (!check.compatible) {
        record({ outcome: "not-ready", reason: "the fresh check says the zone is not compatible" });
        continue;
      }
      const expected = mode === "pending" && opts.finish ? ["validation"] : ["start"];
      if (check.migration_state !== null && !expected.includes(stage)) {
        record({ outcome: "not-ready", reason: `the fresh check says migration_state ${check.migration_state}` });
        continue;
      }
      const config = await getMigrationConfig(deps.client, zoneId);
      const request = putEntrypointRequest(zoneId, mode, config);
      const preview = deps.client.preview(request);
      if (!opts.yes) {
        record({ outcome: "would-send", request: preview });
        continue;
      }
      write({ type: "request", zoneId, mode, at: at(), method: preview.method, url: preview.url, body: preview.body });
      deps.log(`sending ${preview.method} ${preview.url}`);
      let result: unknown;
      try {
        result = (await deps.client.request<unknown>(request)).result;
      } catch (e) {
        if (deps.crash?.("sent")) throw new SimulatedCrash("a request reached the service");
        const err = e as ApiError;
        const definitive = err instanceof ApiError && err.status !== null && err.status < 500;
        write({ type: "answer", zoneId, mode, at: at(), ok: false, status: err instanceof ApiError ? err.status : null, rulesetId: null, definitive, error: err.message });
        record({ outcome: "failed", reason: definitive ? err.message : `${err.message}; whether the service applied it is not known: the next run reads the zone's status before anything else` });
        summary.stoppedBy = zoneId;
        continue;
      }
      summary.sent++;
      if (deps.crash?.("sent")) throw new SimulatedCrash("a request reached the service");
      const rulesetId = rulesetIdOf(result);
      write({ type: "answer", zoneId, mode, at: at(), ok: true, status: 200, rulesetId });
      record({ outcome: "sent", rulesetId });
      await deps.onZoneChanged?.(zoneId);
    } catch (e) {
      if (e instanceof SimulatedCrash) throw e;
      record({ outcome: "failed", reason: (e as Error).message });
      summary.stoppedBy = zoneId;
    }
  }
  for (const z of summary.zones) summary.counts[z.outcome] = (summary.counts[z.outcome] ?? 0) + 1;
  return summary;
}

/** The zones a run considers, in report order: the report's zones, or (--finish) those the ledger shows in validation. */
function candidates(opts: WaveOptions, view: Map<string, ZoneLedger>): ZoneReport[] {
  const zones = uniqueZones(opts.report);
  if (!opts.finish) return zones;
  const inValidation = (id: string): boolean => {
    const z = view.get(id);
    return z !== undefined && (z.applied.has("validation") || z.uncertain === "validation") && !z.applied.has("pending");
  };
  const fromReport = zones.filter((z) => inValidation(z.zoneId.toLowerCase()));
  const known = new Set(fromReport.map((z) => z.zoneId.toLowerCase()));
  // Zones in the ledger but no longer in the report still get finished.
  const extra = [...view.keys()].filter((id) => inValidation(id) && !known.has(id));
  return [...fromReport, ...extra.map((zoneId) => ({ zoneId, migrationMode: "validation", plan: "enterprise" }) as ZoneReport)];
}

async function settleUncertain(zoneId: string, ledger: ZoneLedger, client: ApiClient): Promise<{ applied: boolean; stage: string }> {
  const status = await getMigrationStatus(client, zoneId);
  const stage = migrationStage({ check: null, status });
  if (stage === "unknown") throw new Error(`an earlier ${ledger.uncertain} request has no answer and the status does not say whether it was applied (${JSON.stringify(status)}); check the zone in the dashboard before going on`);
  const applied = ledger.uncertain === "validation" ? stage === "validation" || stage === "finished" : stage === "finished";
  return { applied, stage };
}

function rulesetIdOf(result: unknown): string | null {
  if (result !== null && typeof result === "object" && typeof (result as { id?: unknown }).id === "string") return (result as { id: string }).id;
  return null;
}

/** One line per zone, for people. */
export function summaryLines(summary: WaveSummary): string[] {
  const lines = summary.zones.map((z) => {
    const what: Record<ZoneOutcome, string> = {
      sent: `sent ${z.mode}: accepted${z.rulesetId ? ` (entry point ruleset ${z.rulesetId})` : ""}`,
      "would-send": `would send ${z.mode} (dry run)`,
      "done-earlier": `not sent again: ${z.reason ?? "done earlier"}${z.rulesetId ? ` (entry point ruleset ${z.rulesetId})` : ""}`,
      reconciled: `not sent again: ${z.reason ?? ""}`,
      "not-ready": `not ready: ${z.reason ?? ""}`,
      failed: `FAILED: ${z.reason ?? ""}`,
      "not-reached": summary.stoppedBy ? "not sent: the wave stopped" : "next wave",
    };
    return `zone ${z.zoneId}: ${what[z.outcome]}`;
  });
  const c = summary.counts;
  lines.push(
    `${summary.dryRun ? "dry run" : "wave"}: ${c.sent ?? 0} sent, ${c["would-send"] ?? 0} would be sent, ${c["done-earlier"] ?? 0} done earlier, ${c.reconciled ?? 0} reconciled, ${c["not-ready"] ?? 0} not ready, ${c.failed ?? 0} failed, ${c["not-reached"] ?? 0} left for the next wave${summary.stoppedBy ? ` (stopped at zone ${summary.stoppedBy})` : ""}`,
  );
  return lines;
}
