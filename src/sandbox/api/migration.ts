// What the service's waf_migration endpoints compute from a simulated zone (spec parts 2-3): the new WAF
// configuration equivalent to the previous WAF's settings, the status, and the state transitions of a
// migration PUT. The mapping itself is core's ruleset builder, fed from the account instead of from HCL.

import { isWafBypass } from "../../core/compat.js";
import { MANAGED_PHASE } from "../../core/mappings.js";
import type { FirewallRule, LegacyWafPackage, PageRule, ResourceRef, Ruleset } from "../../core/model.js";
import { buildRuleset } from "../../core/ruleset-builder.js";
import { newId, type Obj, type Zone } from "../account/account.js";

export type MigrationMode = "pending" | "validation";

/** A service-side error: HTTP status, Cloudflare error code and message. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The state the check and status operations report. */
export function migrationState(zone: Zone): "start" | "validation" | "finished" {
  return zone.migration_state ?? (zone.migrated ? "finished" : "start");
}

/** Spec plan rule 3: a zone with URI-based WAF overrides cannot migrate until they are deleted. */
export function isCompatible(zone: Zone): boolean {
  return Object.keys(zone.waf?.overrides ?? {}).length === 0;
}

export function migrationStatus(zone: Zone): Obj {
  const state = migrationState(zone);
  return {
    old_waf_status: state === "finished" ? "disabled" : "enabled",
    new_waf_status: state === "start" ? "disabled" : "enabled",
    migration_state: state,
  };
}

/** GET …/waf_migration/config: the equivalent configuration, rules with empty id/version/ref (they are new). */
export function equivalentConfig(zone: Zone): Ruleset {
  const { ruleset } = buildRuleset({ packages: packagesOf(zone), firewallRules: firewallRulesOf(zone), pageRules: pageRulesOf(zone) });
  return { ...ruleset, rules: ruleset.rules.map((rule) => ({ id: "", version: "", ref: "", ...rule })) };
}

/** The zone's entry point ruleset for the managed phase, with its id, or null when there is none. */
export function findEntrypoint(zone: Zone): (Obj & { id: string }) | null {
  for (const [id, ruleset] of Object.entries(zone.rulesets ?? {})) {
    if (ruleset.kind === "zone" && ruleset.phase === MANAGED_PHASE) return { ...ruleset, id };
  }
  return null;
}

/**
 * PUT …/entrypoint?waf_migration=MODE (spec 4.3 and the state table): checks the transition, then stores the
 * ruleset as the zone's entry point (ids given to new rules) and moves the zone on. Irreversible: a finished
 * zone refuses every further migration request. Returns the stored entry point.
 */
export function migrate(zone: Zone, mode: MigrationMode, body: unknown): Obj & { id: string } {
  const state = migrationState(zone);
  if (state === "finished") throw new ServiceError(400, 10073, "the zone has already been migrated to the new WAF; there is no return to the previous version");
  if (!isCompatible(zone)) throw new ServiceError(400, 10070, "zone is not compatible with the new WAF: delete its URI-based WAF overrides first");
  if (mode === "validation") {
    if (zone.plan !== "enterprise") throw new ServiceError(400, 10071, "validation mode is available to Enterprise zones only");
    if (state === "validation") throw new ServiceError(400, 10074, "the zone is already in validation mode; finish with waf_migration=pending");
  }
  const rules = rulesOf(body);
  if (mode === "validation" && rules.some((rule) => "id" in rule || "version" in rule || "ref" in rule)) {
    throw new ServiceError(400, 10072, "rule id, version and ref must be omitted in validation mode");
  }
  const stored = putEntrypoint(zone, body as Obj, rules);
  if (mode === "validation") zone.migration_state = "validation";
  else {
    zone.migration_state = "finished";
    // The previous managed-rules API is retired for this zone: the provider double's legacy reads fail.
    zone.migrated = true;
  }
  return stored;
}

/** A plain PUT of the entry point (Rulesets API): replaces its rules, creating the ruleset when absent. */
export function putEntrypoint(zone: Zone, body: Obj, rules: Obj[] = rulesOf(body)): Obj & { id: string } {
  const existing = findEntrypoint(zone);
  const id = existing?.id ?? newId();
  const version = String(Number(existing?.version ?? 0) + 1);
  const stored: Obj = {
    name: typeof body.name === "string" ? body.name : (existing?.name ?? "default"),
    // The Rulesets API always answers with a description, empty when none was given.
    description: typeof body.description === "string" ? body.description : (existing?.description ?? ""),
    kind: "zone",
    phase: MANAGED_PHASE,
    version,
    rules: rules.map((rule) => storedRule(rule, version)),
  };
  (zone.rulesets ??= {})[id] = stored;
  return { ...stored, id };
}

function rulesOf(body: unknown): Obj[] {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ServiceError(400, 10021, "body must be a ruleset {name, rules[]}");
  const o = body as Obj;
  if (typeof o.name !== "string" || !Array.isArray(o.rules) || !o.rules.every((r) => r !== null && typeof r === "object" && !Array.isArray(r))) {
    throw new ServiceError(400, 10021, "body must be a ruleset {name, rules[]}");
  }
  return o.rules as Obj[];
}

/** A rule as the service keeps it: new rules (empty or absent id) get an id and a ref; every rule the ruleset's version. */
function storedRule(rule: Obj, version: string): Obj {
  const id = typeof rule.id === "string" && rule.id !== "" ? rule.id : newId();
  const ref = typeof rule.ref === "string" && rule.ref !== "" ? rule.ref : id;
  const out: Obj = { ...rule, id, ref, version };
  if (out.description === "") delete out.description;
  return out;
}

// ---- the previous WAF's settings, read from the account -----------------------------------------------

function ref(type: string, id: string, zoneId: string): ResourceRef {
  // The service knows objects by id, not by Terraform address: its descriptions name the object.
  const label = type.replace(/^cloudflare_/, "").replace(/_/g, " ");
  return { address: `${label} ${id}`, configAddress: `${label} ${id}`, type, file: null, line: null, zoneId, inConfig: false, inState: false };
}

function packagesOf(zone: Zone): LegacyWafPackage[] {
  return (zone.waf?.packages ?? []).map((p) => ({
    ref: ref("cloudflare_waf_package", p.id, zone.id),
    packageId: p.id,
    sensitivity: p.sensitivity,
    actionMode: p.action_mode,
    kind: p.detection_mode === "anomaly" ? "owasp" : "cloudflare",
  }));
}

function objectsOf(zone: Zone, type: string): [string, Obj][] {
  return Object.entries(zone.objects?.[type] ?? {});
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : null);

function firewallRulesOf(zone: Zone): FirewallRule[] {
  const filters = zone.objects?.cloudflare_filter ?? {};
  return objectsOf(zone, "cloudflare_firewall_rule")
    .map(([id, o]): FirewallRule => {
      const filter = filters[String(o.filter_id)];
      return {
        ref: ref("cloudflare_firewall_rule", id, zone.id),
        action: str(o.action),
        products: Array.isArray(o.products) ? o.products.filter((p): p is string => typeof p === "string") : [],
        expression: filter ? str(filter.expression) : null,
        filterAddress: null,
        description: str(o.description),
        paused: typeof o.paused === "boolean" ? o.paused : null,
        priority: num(o.priority),
      };
    })
    .filter(isWafBypass);
}

function pageRulesOf(zone: Zone): PageRule[] {
  return objectsOf(zone, "cloudflare_page_rule").map(([id, o]) => {
    const actions = (Array.isArray(o.actions) ? o.actions[0] : o.actions) as Obj | undefined;
    return {
      ref: ref("cloudflare_page_rule", id, zone.id),
      target: str(o.target),
      disableSecurity: actions?.disable_security === true,
      waf: str(actions?.waf),
      status: str(o.status),
      priority: num(o.priority),
    };
  });
}
