// A local stand-in for the Cloudflare v4 API: the operations of the service spec section 4 (plus GET zone
// and GET entrypoint), per-zone fixtures, auth checking, a log of every request, and scriptable faults.
// It listens on 127.0.0.1 only, on a free port.

import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Ruleset } from "../../src/core/model.js";

export const BASE_PATH = "/client/v4";
const PHASE = "http_request_firewall_managed";

export interface FakeZone {
  id: string;
  name?: string;
  plan: "enterprise" | "business" | "pro" | "free";
  compatible: boolean;
  /** Reported by check; default "start". */
  migrationState?: string;
  /** Result of GET …/waf_migration/config. */
  config: Ruleset;
  /** The current entry point ruleset; null (default) means none yet (GET answers 404). */
  entrypoint?: Record<string, unknown> | null;
  /** Id given to the entry point ruleset the migration PUT creates; default 32 "e". */
  entrypointId?: string;
  /** Result of GET …/waf_migration/status; default old enabled, new disabled, state start. */
  status?: Record<string, unknown>;
  /** Status reads after a migration PUT that still return the status from before it (default 0). */
  statusLag?: number;
  customHostnames?: Record<string, Record<string, unknown>>;
}

export interface FakeCredentials {
  token?: string;
  email?: string;
  key?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path below the base path (e.g. /zones/…/waf_migration/check). */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  json: unknown;
}

export type Fault =
  /** An error envelope (default HTTP 400). */
  | { type: "error"; status?: number; errors?: { code: number; message: string }[]; messages?: { code: number; message: string }[] }
  /** A bare response: status, body and headers as given (e.g. 500 with an HTML page). */
  | { type: "http"; status: number; body?: string; headers?: Record<string, string> }
  /** HTTP 429 with an error envelope and, when given, a Retry-After header. */
  | { type: "rate-limit"; retryAfter?: string }
  /** Wait, then answer normally (unless the client has gone). */
  | { type: "delay"; ms: number }
  /** A body that is not JSON (default HTTP 200). */
  | { type: "malformed"; status?: number; body?: string }
  /** A careless proxy: an error envelope that quotes the credentials it received. */
  | { type: "echo-credentials"; status?: number };

export interface FaultMatch {
  method?: string;
  /** Exact path below the base path, or a pattern. */
  path?: string | RegExp;
}

interface ScheduledFault {
  match: FaultMatch;
  fault: Fault;
  remaining: number;
}

export interface FakeCloudflare {
  /** http://127.0.0.1:<port>/client/v4 */
  baseUrl: string;
  requests: RecordedRequest[];
  zones: Map<string, FakeZone>;
  /** Answer the next `times` matching requests (default 1) with `fault`, in the order scheduled. */
  inject(match: FaultMatch, fault: Fault, times?: number): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

export async function startFakeCloudflare(options: { zones: FakeZone[]; credentials: FakeCredentials }): Promise<FakeCloudflare> {
  const zones = new Map(options.zones.map((z) => [z.id, structuredClone(z)]));
  const requests: RecordedRequest[] = [];
  const faults: ScheduledFault[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const pendingStatus = new Map<string, { lag: number; before: Json }>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown = undefined;
      try {
        json = body === "" ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      const path = url.pathname.startsWith(BASE_PATH) ? url.pathname.slice(BASE_PATH.length) : url.pathname;
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path,
        query: Object.fromEntries(url.searchParams.entries()),
        headers: req.headers,
        body,
        json,
      };
      requests.push(recorded);
      const fault = takeFault(recorded);
      if (fault?.type === "delay") {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) route(recorded, res);
        }, fault.ms);
        timers.add(timer);
        return;
      }
      if (fault) return sendFault(fault, recorded, res);
      route(recorded, res);
    });
  });

  function takeFault(r: RecordedRequest): Fault | null {
    for (const f of faults) {
      if (f.remaining <= 0) continue;
      if (f.match.method && f.match.method.toUpperCase() !== r.method) continue;
      if (typeof f.match.path === "string" && f.match.path !== r.path) continue;
      if (f.match.path instanceof RegExp && !f.match.path.test(r.path)) continue;
      f.remaining--;
      return f.fault;
    }
    return null;
  }

  function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    if (res.destroyed) return;
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(body);
  }

  function envelope(res: http.ServerResponse, status: number, result: unknown): void {
    send(res, status, JSON.stringify({ result, success: true, errors: [], messages: [] }));
  }

  function fail(res: http.ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
    send(res, status, JSON.stringify({ result: null, success: false, errors: [{ code, message }], messages: [] }), headers);
  }

  function sendFault(fault: Exclude<Fault, { type: "delay" }>, r: RecordedRequest, res: http.ServerResponse): void {
    switch (fault.type) {
      case "error":
        return send(res, fault.status ?? 400, JSON.stringify({ result: null, success: false, errors: fault.errors ?? [], messages: fault.messages ?? [] }));
      case "http":
        return send(res, fault.status, fault.body ?? "", fault.headers ?? {});
      case "rate-limit":
        return fail(res, 429, 971, "Please wait and consider throttling your request speed", fault.retryAfter === undefined ? {} : { "Retry-After": fault.retryAfter });
      case "malformed":
        return send(res, fault.status ?? 200, fault.body ?? "<html><body>502 Bad Gateway</body></html>", { "Content-Type": "text/html" });
      case "echo-credentials": {
        const got = [r.headers.authorization, r.headers["x-auth-email"], r.headers["x-auth-key"]].filter(Boolean).join(" | ");
        return fail(res, fault.status ?? 403, 9109, `Invalid access: received ${got}`);
      }
    }
  }

  function authorized(r: RecordedRequest): boolean {
    const c = options.credentials;
    const bearer = r.headers.authorization;
    if (c.token && bearer === `Bearer ${c.token}`) return true;
    if (c.email && c.key && r.headers["x-auth-email"] === c.email && r.headers["x-auth-key"] === c.key) return true;
    return false;
  }

  function route(r: RecordedRequest, res: http.ServerResponse): void {
    if (!authorized(r)) return fail(res, 401, 10000, "Authentication error");
    const m = /^\/zones\/([^/]+)(\/.*)?$/.exec(r.path);
    if (!m) return fail(res, 404, 7000, "No route for that URI");
    const zone = zones.get(decodeURIComponent(m[1]));
    if (!zone) return fail(res, 404, 7003, `Could not route to ${r.path}, perhaps your object identifier is invalid?`);
    const rest = m[2] ?? "";
    const key = `${r.method} ${rest.replace(/^\/custom_hostnames\/[^/]+$/, "/custom_hostnames/:id")}`;
    switch (key) {
      case "GET ":
        return envelope(res, 200, { id: zone.id, name: zone.name ?? `${zone.id.slice(0, 6)}.example`, plan: { legacy_id: zone.plan, name: `${zone.plan} plan` } });
      case "GET /waf_migration/check":
        if (r.query.phase_two !== "1") return fail(res, 400, 1001, "phase_two=1 is required");
        return envelope(res, 200, { compatible: zone.compatible, migration_state: zone.migrationState ?? "start" });
      case "GET /waf_migration/config":
        if (r.query.phase_two !== "1") return fail(res, 400, 1001, "phase_two=1 is required");
        return envelope(res, 200, zone.config);
      case "GET /waf_migration/status":
        return envelope(res, 200, readStatus(zone));
      case `GET /rulesets/phases/${PHASE}/entrypoint`:
        if (!zone.entrypoint) return fail(res, 404, 10003, `could not find entrypoint ruleset in the ${PHASE} phase`);
        return envelope(res, 200, zone.entrypoint);
      case `PUT /rulesets/phases/${PHASE}/entrypoint`:
        return putEntrypoint(zone, r, res);
      case "PATCH /custom_hostnames/:id":
        return patchHostname(zone, r, res);
      default:
        return fail(res, 404, 7000, "No route for that URI");
    }
  }

  function currentStatus(zone: FakeZone): Json {
    return zone.status ?? { old_waf_status: "enabled", new_waf_status: "disabled", migration_state: zone.migrationState ?? "start" };
  }

  function readStatus(zone: FakeZone): Json {
    const pending = pendingStatus.get(zone.id);
    if (pending && pending.lag > 0) {
      pending.lag--;
      return pending.before;
    }
    return currentStatus(zone);
  }

  function putEntrypoint(zone: FakeZone, r: RecordedRequest, res: http.ServerResponse): void {
    if (!String(r.headers["content-type"] ?? "").startsWith("application/json")) return fail(res, 415, 10026, "Content-Type must be application/json");
    const mode = { pending: "pending", "1": "pending", validation: "validation", "2": "validation" }[r.query.waf_migration ?? ""];
    if (!mode) return fail(res, 400, 10021, "waf_migration must be pending (1) or validation (2) in this flow");
    if (r.query.phase_two !== "1") return fail(res, 400, 1001, "phase_two=1 is required");
    const body = r.json as Json | undefined;
    if (!body || typeof body.name !== "string" || !Array.isArray(body.rules)) return fail(res, 400, 10021, "body must be a ruleset {name, rules[]}");
    if (!zone.compatible) return fail(res, 400, 10070, "zone is not compatible with the new WAF in its current configuration");
    if (mode === "validation" && zone.plan !== "enterprise") return fail(res, 400, 10071, "validation mode is available to Enterprise zones only");
    const rules = body.rules as Json[];
    if (mode === "validation" && rules.some((rule) => "id" in rule || "version" in rule || "ref" in rule)) {
      return fail(res, 400, 10072, "rule id, version and ref must be omitted in validation mode");
    }
    const before = currentStatus(zone);
    zone.status =
      mode === "validation"
        ? { old_waf_status: "enabled", new_waf_status: "enabled", migration_state: "validation" }
        : { old_waf_status: "disabled", new_waf_status: "enabled", migration_state: "finished" };
    zone.migrationState = String(zone.status.migration_state);
    if (zone.statusLag) pendingStatus.set(zone.id, { lag: zone.statusLag, before });
    const id = zone.entrypointId ?? "e".repeat(32);
    zone.entrypoint = {
      id,
      name: body.name,
      kind: "zone",
      phase: PHASE,
      version: "1",
      rules: rules.map((rule, i) => ({ ...rule, id: rule.id ? rule.id : `${i}`.padStart(32, "a"), version: "1", ref: rule.ref ? rule.ref : `${i}`.padStart(32, "b") })),
    };
    envelope(res, 200, zone.entrypoint);
  }

  function patchHostname(zone: FakeZone, r: RecordedRequest, res: http.ServerResponse): void {
    const id = decodeURIComponent(r.path.split("/").pop() ?? "");
    const record = zone.customHostnames?.[id];
    if (!record) return fail(res, 404, 1436, "The custom hostname was not found");
    const ssl = (r.json as Json | undefined)?.ssl as Json | undefined;
    if (!ssl || typeof ssl.method !== "string" || typeof ssl.type !== "string" || typeof ssl.certificate_authority !== "string") {
      return fail(res, 400, 1400, "ssl {method, type, certificate_authority} is required");
    }
    record.ssl = { ...((record.ssl as Json | undefined) ?? {}), ...ssl, status: "pending_validation" };
    envelope(res, 200, record);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
    requests,
    zones,
    inject(match, fault, times = 1) {
      faults.push({ match, fault, remaining: times });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- fixtures ---------------------------------------------------------------------------------------

export const ZONE_PRO = "0da42c8d2132a9ddaf714f9e7c920711";
export const ZONE_ENT = "9a7806061c88ada191ed06f989cc3dac";
export const ZONE_INCOMPATIBLE = "023e105f4ecef8ad9ca31a8372d0c353";
export const ZONE_UNKNOWN = "ffffffffffffffffffffffffffffffff";
export const HOSTNAME_ID = "0d89c70d-ad9f-4843-b99f-6cc0252067e9";

/** The configuration from the migration guide's example: one execute rule with one rule override. */
export function sampleConfig(): Ruleset {
  return {
    name: "default",
    rules: [
      {
        id: "",
        version: "",
        action: "execute",
        expression: "true",
        description: "",
        ref: "",
        enabled: true,
        action_parameters: {
          id: "efb7b8c949ac4650a09736fc376e9aee",
          overrides: { rules: [{ id: "23ee7cebe6e8443e99ecf932ab579455", action: "log", enabled: false }] },
        },
      },
    ],
  };
}

export function sampleZones(): FakeZone[] {
  return [
    {
      id: ZONE_PRO,
      name: "shop.example",
      plan: "pro",
      compatible: true,
      config: sampleConfig(),
      customHostnames: { [HOSTNAME_ID]: { id: HOSTNAME_ID, hostname: "app.customer.example", ssl: { method: "txt", type: "dv", certificate_authority: "lets_encrypt" } } },
    },
    { id: ZONE_ENT, name: "bank.example", plan: "enterprise", compatible: true, config: sampleConfig(), entrypointId: "4814384a9e5d4991b9815dcfc25d2f1f" },
    { id: ZONE_INCOMPATIBLE, name: "legacy.example", plan: "business", compatible: false, config: sampleConfig() },
  ];
}
