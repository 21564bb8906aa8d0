// Shared by the online tests: a simulated estate on disk (account + Terraform), the simulated API in
// process with a fake clock, and the library path of `scan --online`.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeAccount } from "../../src/sandbox/account/account.js";
import { buildEstate, estateTerraform, type Estate } from "../../src/sandbox/api/estate.js";
import { simulatedFetch } from "../../src/sandbox/api/fetch.js";
import { createApiHandler, type ApiHandler } from "../../src/sandbox/api/server.js";
import type { ZoneFaults } from "../../src/sandbox/api/faults.js";
import { loadWorkspace } from "../../src/terraform/workspace.js";
import { buildReport } from "../../src/core/report.js";
import { analyzeOnline } from "../../src/online/enrich.js";
import { openOnlineSession, type OnlineSession } from "../../src/online/session.js";
import type { Report } from "../../src/core/model.js";

/** A token long enough for every transformed form the redactor knows. */
export const TOKEN = "Zq8-vT3kLm9pX2rWc7YbN4hJd6Fs1GaE0uKo5Rit";

export interface EstateDirs {
  estate: Estate;
  root: string;
  accountDir: string;
  tfDir: string;
}

export function estateOnDisk(zones: number, retryAfterSeconds = 2): EstateDirs {
  const root = mkdtempSync(path.join(os.tmpdir(), "cfwm-online-"));
  const accountDir = path.join(root, "account");
  const tfDir = path.join(root, "tf");
  mkdirSync(tfDir, { recursive: true });
  const estate = buildEstate({ zones, retryAfterSeconds });
  writeAccount(accountDir, estate.account);
  writeFileSync(path.join(tfDir, "main.tf"), estateTerraform(estate));
  return { estate, root, accountDir, tfDir };
}

/** A clock that only moves when someone sleeps: hours of rate-limited traffic run in milliseconds. */
export class FakeClock {
  t = Date.UTC(2026, 0, 1);
  now = (): number => this.t;
  sleep = async (ms: number): Promise<void> => {
    this.t += Math.max(0, ms);
    await Promise.resolve();
  };
}

export interface InProcessApi {
  api: ApiHandler;
  fetch: typeof fetch;
  clock: FakeClock;
}

export function inProcessApi(accountDir: string, opts: { faults?: Record<string, ZoneFaults>; rateLimit?: { requests: number; windowMs: number }; clock?: FakeClock } = {}): InProcessApi {
  const clock = opts.clock ?? new FakeClock();
  const api = createApiHandler({ accountDir, credentials: { token: TOKEN }, now: clock.now, ...(opts.faults ? { faults: opts.faults } : {}), ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}) });
  return { api, fetch: simulatedFetch(api), clock };
}

export function session(dirs: EstateDirs, sim: InProcessApi, settings: { maxAge?: string; jobs?: number; cacheDir?: string } = {}, log?: (l: string) => void): OnlineSession {
  return openOnlineSession(
    { baseUrl: "http://127.0.0.1/client/v4", cacheDir: settings.cacheDir ?? path.join(dirs.root, "cache"), ...settings },
    { env: { CLOUDFLARE_API_TOKEN: TOKEN }, cwd: dirs.root, fetch: sim.fetch, now: sim.clock.now, sleep: sim.clock.sleep, ...(log ? { log } : {}) },
  );
}

/** What `scan --online --format json` does, through the library. */
export async function onlineReport(tfDir: string, s: OnlineSession): Promise<Report> {
  const ws = await loadWorkspace({ paths: [tfDir], statePaths: [], cwd: tfDir, readStdin: async () => Buffer.alloc(0) });
  const { analysis, decorate } = await analyzeOnline(ws.domain, { stateKnown: ws.stateKnown }, s);
  const report = buildReport({ version: "test", resources: ws.resources, analysis, errors: ws.errors });
  decorate(report);
  return report;
}
