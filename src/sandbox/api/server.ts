// The simulated Cloudflare API (v4 paths under /client/v4) on the same account file as the provider double:
// zones, the waf_migration operations of the service spec (check, config, status, and the entry point PUT
// that migrates), and the managed-phase entry point ruleset. Auth headers are checked, every answer uses the
// API envelope, and it listens on 127.0.0.1 only. Each request reads account.json afresh and writes changes
// back atomically, so terraform runs and API calls interleave on one consistent account.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { MANAGED_PHASE } from "../../core/mappings.js";
import { statSync } from "node:fs";
import { join } from "node:path";
import { ACCOUNT_FILE, readAccount, writeAccount, type Account, type Zone } from "../account/account.js";
import { credentialOf, FaultBook, ServiceRateLimit, zoneOfPath, type RequestRecord, type ZoneFaults } from "./faults.js";
import { equivalentConfig, findEntrypoint, isCompatible, migrate, migrationState, migrationStatus, putEntrypoint, ServiceError, type MigrationMode } from "./migration.js";

export const API_BASE_PATH = "/client/v4";

export interface ApiCredentials {
  token?: string;
  email?: string;
  key?: string;
}

export interface ApiServerOptions {
  accountDir: string;
  /** The credentials the server accepts (bearer token, or e-mail + key). */
  credentials: ApiCredentials;
  /** 0 (default) picks a free port. */
  port?: number;
  /** One line per request (method, path, status), never headers or bodies. */
  log?: (line: string) => void;
  /** Misbehaviour per zone id, consumed request by request (see faults.ts). */
  faults?: Record<string, ZoneFaults>;
  /** The service's own limiter per credential (429 with Retry-After past it); absent: unlimited. */
  rateLimit?: { requests: number; windowMs: number };
  /** Clock of the request log and of the rate limit (tests inject a simulated one). */
  now?: () => number;
  /** HTTP server only: answer PUTs this much later (the change is already applied: a slow answer). */
  putDelayMs?: number;
  /**
   * HTTP server only: the n-th PUT (1-based, the change already applied) is answered once the promise this
   * returns settles (then after putDelayMs). Tests hold an answer until they have acted (e.g. killed the
   * client) instead of racing a timer.
   */
  holdPut?: (n: number) => Promise<void> | undefined;
}

export interface ApiServer {
  /** http://127.0.0.1:<port>/client/v4 */
  baseUrl: string;
  port: number;
  /** Every request the server answered, in order (for counting per window and per zone). */
  requests(): RequestRecord[];
  close(): Promise<void>;
}

interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Answer {
  status: number;
  body: unknown;
}

const MODES: Record<string, MigrationMode> = { pending: "pending", "1": "pending", validation: "validation", "2": "validation" };

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const api = createApiHandler(options);
  let puts = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const reply = api.handle({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body);
      };
      const later = (): void => {
        if (req.method === "PUT" && (options.putDelayMs ?? 0) > 0) setTimeout(send, options.putDelayMs);
        else send();
      };
      const held = req.method === "PUT" ? options.holdPut?.(++puts) : undefined;
      if (held) void held.then(later, later);
      else later();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${API_BASE_PATH}`,
    port,
    requests: api.requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface RawRequest {
  method: string;
  /** Path and query, as on the request line. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ApiHandler {
  handle(req: RawRequest): RawReply;
  requests(): RequestRecord[];
}

/** The service without a socket: the HTTP server uses it, and so does `simulatedFetch` (in-process tests). */
export function createApiHandler(options: ApiServerOptions): ApiHandler {
  const now = options.now ?? Date.now;
  const log: RequestRecord[] = [];
  const faults = new FaultBook(options.faults ?? {});
  const limiter = options.rateLimit ? new ServiceRateLimit(options.rateLimit.requests, options.rateLimit.windowMs) : null;
  return {
    requests: () => [...log],
    handle(raw) {
      const url = new URL(raw.url, "http://127.0.0.1");
      const request: Request = { method: raw.method, path: url.pathname, query: url.searchParams, headers: raw.headers, body: raw.body };
      const at = now();
      let answer: Answer;
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      try {
        const limited = limiter?.admit(credentialOf(raw.headers), at) ?? null;
        const fault = limited === null ? faults.take(zoneOfPath(url.pathname)) : null;
        if (limited !== null) {
          headers["Retry-After"] = String(limited);
          answer = failure(429, 10000, "Rate limited. Please wait and consider throttling your request speed");
        } else if (fault?.kind === "rate-limited") {
          headers["Retry-After"] = String(fault.retryAfterSeconds);
          answer = failure(429, 10000, "Rate limited. Please wait and consider throttling your request speed");
        } else if (fault?.kind === "server-error") {
          answer = failure(500, 10000, "Internal Server Error");
        } else {
          answer = handle(options, request);
        }
      } catch (e) {
        answer = e instanceof ServiceError ? failure(e.status, e.code, e.message) : failure(500, 10000, `internal error: ${(e as Error).message}`);
      }
      log.push({ at, method: request.method, path: url.pathname, query: url.search, status: answer.status, zoneId: zoneOfPath(url.pathname) });
      options.log?.(`${request.method} ${url.pathname}${url.search} ${answer.status}`);
      return { status: answer.status, headers, body: JSON.stringify(answer.body) };
    },
  };
}

/**
 * Reads account.json afresh whenever it changed on disk (the provider double writes it too), and reuses
 * the parsed account otherwise: a 300-zone estate is parsed once per change, not once per request.
 */
const readers = new Map<string, () => Account>();
function accountReader(dir: string): () => Account {
  let reader = readers.get(dir);
  if (!reader) {
    let seen: { key: string; account: Account } | null = null;
    reader = () => {
      let key = "absent";
      try {
        const st = statSync(join(dir, ACCOUNT_FILE));
        key = `${st.mtimeMs}:${st.size}:${st.ino}`;
      } catch {
        // No file yet: an empty account, read below.
      }
      if (seen === null || seen.key !== key) seen = { key, account: readAccount(dir) };
      return seen.account;
    };
    readers.set(dir, reader);
  }
  return reader;
}

function success(status: number, result: unknown): Answer {
  return { status, body: { result, success: true, errors: [], messages: [] } };
}

function failure(status: number, code: number, message: string): Answer {
  return { status, body: { result: null, success: false, errors: [{ code, message }], messages: [] } };
}

function authorized(c: ApiCredentials, h: http.IncomingHttpHeaders): boolean {
  if (c.token && h.authorization === `Bearer ${c.token}`) return true;
  if (c.email && c.key && h["x-auth-email"] === c.email && h["x-auth-key"] === c.key) return true;
  return false;
}

function handle(options: ApiServerOptions, r: Request): Answer {
  if (!r.path.startsWith(`${API_BASE_PATH}/`)) return failure(404, 7000, "No route for that URI");
  if (!authorized(options.credentials, r.headers)) return failure(401, 10000, "Authentication error");
  const path = r.path.slice(API_BASE_PATH.length);
  const account = accountReader(options.accountDir)();
  if (r.method === "GET" && path === "/zones") {
    const name = r.query.get("name");
    const zones = Object.values(account.zones).filter((z) => name === null || z.name === name);
    return success(200, zones.map(zoneResult));
  }
  const m = /^\/zones\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) return failure(404, 7000, "No route for that URI");
  const zone = account.zones[decodeURIComponent(m[1]!)];
  if (!zone) return failure(404, 7003, `Could not route to ${path}, perhaps your object identifier is invalid?`);
  const route = `${r.method} ${m[2] ?? ""}`;
  switch (route) {
    case "GET ":
      return success(200, zoneResult(zone));
    case "GET /waf_migration/check":
      requirePhaseTwo(r);
      return success(200, { compatible: isCompatible(zone), migration_state: migrationState(zone) });
    case "GET /waf_migration/config":
      requirePhaseTwo(r);
      return success(200, equivalentConfig(zone));
    case "GET /waf_migration/status":
      return success(200, migrationStatus(zone));
    case `GET /rulesets/phases/${MANAGED_PHASE}/entrypoint`: {
      const entrypoint = findEntrypoint(zone);
      if (!entrypoint) return failure(404, 10003, `could not find entrypoint ruleset in the ${MANAGED_PHASE} phase`);
      return success(200, entrypoint);
    }
    case `PUT /rulesets/phases/${MANAGED_PHASE}/entrypoint`:
      return putEntrypointRoute(options, account, zone, r);
    default:
      return failure(404, 7000, "No route for that URI");
  }
}

function putEntrypointRoute(options: ApiServerOptions, account: Account, zone: Zone, r: Request): Answer {
  if (!String(r.headers["content-type"] ?? "").startsWith("application/json")) throw new ServiceError(415, 10026, "Content-Type must be application/json");
  let body: unknown;
  try {
    body = JSON.parse(r.body);
  } catch {
    throw new ServiceError(400, 10021, "the request body is not JSON");
  }
  const modeParam = r.query.get("waf_migration");
  let stored;
  if (modeParam === null) {
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ServiceError(400, 10021, "body must be a ruleset {name, rules[]}");
    stored = putEntrypoint(zone, body as Record<string, unknown>);
  } else {
    const mode = MODES[modeParam];
    if (!mode) throw new ServiceError(400, 10021, "waf_migration must be pending (1) or validation (2)");
    requirePhaseTwo(r);
    stored = migrate(zone, mode, body);
  }
  writeAccount(options.accountDir, account);
  return success(200, stored);
}

function requirePhaseTwo(r: Request): void {
  if (r.query.get("phase_two") !== "1") throw new ServiceError(400, 1001, "phase_two=1 is required");
}

function zoneResult(zone: Zone): Record<string, unknown> {
  return {
    id: zone.id,
    name: zone.name,
    status: zone.status ?? "active",
    paused: zone.paused ?? false,
    type: zone.type ?? "full",
    plan: { legacy_id: zone.plan, name: `${zone.plan[0]!.toUpperCase()}${zone.plan.slice(1)} Website` },
  };
}
