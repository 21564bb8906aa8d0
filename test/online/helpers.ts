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
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
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

/** A state v4 holding one estate zone's legacy package and group, as `terraform state pull` prints it. */
export function estateZoneState(zoneId: string, key: string): string {
  const provider = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
  const resource = (type: string, name: string, attributes: Record<string, string>) => ({ mode: "managed", type, name, provider, instances: [{ schema_version: 0, attributes: { zone_id: zoneId, ...attributes } }] });
  return JSON.stringify({
    version: 4,
    terraform_version: "1.11.0",
    serial: 1,
    lineage: "estate",
    outputs: {},
    resources: [
      resource("cloudflare_waf_package", `owasp_${key}`, { id: "a25a9a7e9c00afc1fb2e0245519d725b", package_id: "a25a9a7e9c00afc1fb2e0245519d725b", sensitivity: "medium", action_mode: "simulate" }),
      resource("cloudflare_waf_group", `wordpress_${key}`, { id: "de677e5818985db1285d0e80225f06e5", group_id: "de677e5818985db1285d0e80225f06e5", package_id: "1e334934fd7ae32ad705667f8c1057aa", mode: "off" }),
    ],
  });
}
