// One typed function per operation the tool uses, plus the request builders they share with dry runs.
// Paths and queries follow the service spec, section 4; phase_two=1 goes on check, config and the
// entry point PUT (section 9), not on status.

import type { Ruleset, RulesetRule } from "../core/model.js";
import type { ApiClient, ApiRequest } from "./client.js";
import { ApiError } from "./errors.js";
import {
  CERTIFICATE_AUTHORITY_VALUES,
  type CertificateAuthorityChoice,
  type CompatibilityResult,
  type CustomHostnameCaBody,
  type EntrypointRuleset,
  type MigrationMode,
  type MigrationStatus,
  type ZoneInfo,
} from "./types.js";

export const MANAGED_PHASE = "http_request_firewall_managed";
const PHASE_TWO = { phase_two: "1" } as const;

/** Zone identifiers are 32 hexadecimal characters. */
export function isZoneId(value: string): boolean {
  return /^[0-9a-f]{32}$/i.test(value);
}

function zonePath(zoneId: string): string {
  return `/zones/${encodeURIComponent(zoneId)}`;
}

// ---- request builders -------------------------------------------------------------------------------

export function checkRequest(zoneId: string): ApiRequest {
  return { method: "GET", path: `${zonePath(zoneId)}/waf_migration/check`, query: { ...PHASE_TWO } };
}

export function configRequest(zoneId: string): ApiRequest {
  return { method: "GET", path: `${zonePath(zoneId)}/waf_migration/config`, query: { ...PHASE_TWO } };
}

export function statusRequest(zoneId: string): ApiRequest {
  return { method: "GET", path: `${zonePath(zoneId)}/waf_migration/status` };
}

export function entrypointPath(zoneId: string): string {
  return `${zonePath(zoneId)}/rulesets/phases/${MANAGED_PHASE}/entrypoint`;
}

export function getEntrypointRequest(zoneId: string): ApiRequest {
  return { method: "GET", path: entrypointPath(zoneId) };
}

/**
 * The PUT that starts (validation) or finishes (pending) the migration. Retried only on 429: a 5xx or a
 * timeout leaves it unknown whether the service applied it, so the caller checks status instead.
 */
export function putEntrypointRequest(zoneId: string, mode: MigrationMode, config: Ruleset): ApiRequest {
  return {
    method: "PUT",
    path: entrypointPath(zoneId),
    query: { waf_migration: mode, ...PHASE_TWO },
    body: migrationRequestBody(config, mode),
    retry: "rate-limit-only",
    envelope: "optional",
  };
}

export function zoneRequest(zoneId: string): ApiRequest {
  return { method: "GET", path: zonePath(zoneId) };
}

/** Spec 4.5; spec 5 names the e-mail + key scheme for this call, so it is preferred when both are set. */
export function customHostnameCaRequest(zoneId: string, hostnameId: string, ca: CertificateAuthorityChoice): ApiRequest {
  const body: CustomHostnameCaBody = { ssl: { method: "txt", type: "dv", certificate_authority: CERTIFICATE_AUTHORITY_VALUES[ca] } };
  return {
    method: "PATCH",
    path: `${zonePath(zoneId)}/custom_hostnames/${encodeURIComponent(hostnameId)}`,
    body,
    auth: "email_key",
    envelope: "optional",
  };
}

/**
 * The entry point body for a migration PUT (spec part 2, Rule): the configuration as the service returned
 * it; in validation mode each rule's `id`, `version` and `ref` are omitted, in pending mode (the finishing
 * request) they are kept, empty for new rules.
 */
export function migrationRequestBody(config: Ruleset, mode: MigrationMode): Ruleset {
  const copy = structuredClone(config);
  if (mode === "validation") {
    copy.rules = copy.rules.map((rule) => {
      const { id: _id, version: _version, ref: _ref, ...rest } = rule;
      return rest as RulesetRule;
    });
  }
  return copy;
}

// ---- operations -------------------------------------------------------------------------------------

export async function checkCompatibility(client: ApiClient, zoneId: string): Promise<CompatibilityResult> {
  const req = checkRequest(zoneId);
  const res = await client.request<unknown>(req);
  const result = expectObject(client, req, res.status, res.result);
  if (typeof result.compatible !== "boolean") throw shapeError(client, req, res.status, 'result has no boolean "compatible"');
  const state = result.migration_state;
  return { ...result, compatible: result.compatible, migration_state: typeof state === "string" ? state : null };
}

/** The new WAF configuration equivalent to the zone's previous-WAF settings: `{name, rules[]}`. */
export async function getMigrationConfig(client: ApiClient, zoneId: string): Promise<Ruleset> {
  const req = configRequest(zoneId);
  const res = await client.request<unknown>(req);
  return expectRuleset(client, req, res.status, res.result);
}

export async function getMigrationStatus(client: ApiClient, zoneId: string): Promise<MigrationStatus> {
  const req = statusRequest(zoneId);
  const res = await client.request<unknown>(req);
  return expectObject(client, req, res.status, res.result) as MigrationStatus;
}

export async function getEntrypoint(client: ApiClient, zoneId: string): Promise<EntrypointRuleset> {
  const req = getEntrypointRequest(zoneId);
  const res = await client.request<unknown>(req);
  const ruleset = expectRuleset(client, req, res.status, res.result) as unknown as Record<string, unknown>;
  if (typeof ruleset.id !== "string" || ruleset.id === "") throw shapeError(client, req, res.status, 'result has no ruleset "id"');
  return ruleset as EntrypointRuleset;
}

/** Sends the migration PUT. Returns the response's result (the spec does not show it; null when empty). */
export async function putEntrypoint(client: ApiClient, zoneId: string, mode: MigrationMode, config: Ruleset): Promise<unknown> {
  const res = await client.request<unknown>(putEntrypointRequest(zoneId, mode, config));
  return res.result;
}

export async function getZone(client: ApiClient, zoneId: string): Promise<ZoneInfo> {
  const req = zoneRequest(zoneId);
  const res = await client.request<unknown>(req);
  const zone = expectObject(client, req, res.status, res.result);
  if (typeof zone.id !== "string") throw shapeError(client, req, res.status, 'result has no zone "id"');
  return zone as ZoneInfo;
}

/** Sets a custom hostname's certificate authority. Returns the response's result (null when empty). */
export async function patchCustomHostnameCa(client: ApiClient, zoneId: string, hostnameId: string, ca: CertificateAuthorityChoice): Promise<unknown> {
  const res = await client.request<unknown>(customHostnameCaRequest(zoneId, hostnameId, ca));
  return res.result;
}

// ---- shape checks -----------------------------------------------------------------------------------

function label(req: ApiRequest): string {
  const qs = req.query ? `?${new URLSearchParams(req.query).toString()}` : "";
  return `${req.method} ${req.path}${qs}`;
}

function shapeError(client: ApiClient, req: ApiRequest, status: number, what: string): ApiError {
  const path = label(req).slice(req.method.length + 1);
  return new ApiError(client.redact(`${label(req)}: unexpected response: ${what}`), { kind: "malformed", status, method: req.method, path });
}

function expectObject(client: ApiClient, req: ApiRequest, status: number, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw shapeError(client, req, status, "result is not an object");
  return value as Record<string, unknown>;
}

/** Checks `{name: string, rules: object[]}`; the rules are kept as the service sent them. */
export function isRuleset(value: unknown): value is Ruleset {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  return typeof o.name === "string" && Array.isArray(o.rules) && o.rules.every((r) => r !== null && typeof r === "object" && !Array.isArray(r));
}

function expectRuleset(client: ApiClient, req: ApiRequest, status: number, value: unknown): Ruleset {
  if (!isRuleset(value)) throw shapeError(client, req, status, 'result is not a ruleset ({"name": string, "rules": [objects]})');
  return value;
}
