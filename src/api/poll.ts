// Waiting for the migration to take effect after the PUT: poll the status operation until the new WAF is
// on, or until a time limit.

import type { ApiClient } from "./client.js";
import { getMigrationStatus } from "./endpoints.js";
import type { Sleep } from "./retry.js";
import type { MigrationMode, MigrationStatus } from "./types.js";

const lower = (v: unknown): string | null => (typeof v === "string" ? v.trim().toLowerCase() : null);

/**
 * Whether a status says the migration requested in `mode` has taken effect. The spec names no fields, so
 * this reads the unofficial names and stays conservative:
 * - the new WAF counts as on when `new_waf_status` is "enabled", or when `migration_state` is a value other
 *   than "start" or "pending" (the states before the change; the spec gives only "start");
 * - in pending mode (which disables the previous WAF), a reported `old_waf_status` must also no longer be
 *   "enabled", so a zone still in validation is not taken for finished.
 * With none of these fields present nothing can be told, and it is never "done".
 */
export function isMigrationDone(status: MigrationStatus, mode: MigrationMode): boolean {
  const newWaf = lower(status.new_waf_status);
  const state = lower(status.migration_state);
  const newOn = newWaf === "enabled" || (state !== null && state !== "" && state !== "start" && state !== "pending");
  if (!newOn) return false;
  if (mode === "pending" && lower(status.old_waf_status) === "enabled") return false;
  return true;
}

export interface PollOptions {
  client: ApiClient;
  zoneId: string;
  mode: MigrationMode;
  /** Wait between polls. */
  intervalMs: number;
  /** Stop polling when the next wait would end after this many ms since the start. */
  timeoutMs: number;
  sleep: Sleep;
  now?: () => number;
  /** Called after every poll (for progress output). */
  onPoll?: (poll: { number: number; elapsedMs: number; status: MigrationStatus; done: boolean }) => void;
}

export interface PollOutcome {
  done: boolean;
  status: MigrationStatus;
  polls: number;
  elapsedMs: number;
}

/**
 * Polls once right away, then every `intervalMs`, until done or out of time. The number of polls is also
 * bounded by timeout / interval, so an injected sleep that does not advance the clock still ends.
 * API errors propagate.
 */
export async function waitForMigration(opts: PollOptions): Promise<PollOutcome> {
  const now = opts.now ?? Date.now;
  const started = now();
  const maxPolls = Math.floor(opts.timeoutMs / Math.max(1, opts.intervalMs)) + 1;
  for (let n = 1; ; n++) {
    const status = await getMigrationStatus(opts.client, opts.zoneId);
    const done = isMigrationDone(status, opts.mode);
    const elapsedMs = now() - started;
    opts.onPoll?.({ number: n, elapsedMs, status, done });
    if (done) return { done, status, polls: n, elapsedMs };
    if (n >= maxPolls || elapsedMs + opts.intervalMs > opts.timeoutMs) return { done: false, status, polls: n, elapsedMs };
    await opts.sleep(opts.intervalMs);
  }
}
