// What the service's answers (`--online`) change in a report, as pure functions: where a zone's migration
// stands, which ruleset and ruleset id the analysis uses, the `zones[].service` entry, and the findings
// where the service and the offline rules disagree. The online layer fetches; this decides.

import type { AnalysisResult, AnalyzeOptions } from "./analyze.js";
import { finding, sortFindings } from "./findings.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { Finding, Report, Ruleset, RulesetRule, ServiceCall, ZonePlan, ZoneReport, ZoneService } from "./model.js";
import { inputRecord } from "./null-proto.js";

/** The service's answers for one zone, as the online layer collected them (results of the v4 API). */
export interface ServiceAnswers {
  zoneId: string;
  check: { compatible: boolean; migration_state: string | null } | null;
  status: Record<string, unknown> | null;
  config: Ruleset | null;
  entrypoint: (Ruleset & { id: string }) | null;
  /** From GET /zones/{id}, asked only when the offline analysis does not know the plan. */
  plan?: ZonePlan | null;
  calls: ServiceCall[];
  /** The call that failed and why; the other answers are then not used. */
  error: string | null;
}

const lower = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim().toLowerCase() : null);

/**
 * Where the migration stands. The check gives `migration_state` (`start` is the only value the spec
 * names); the status's field names are known from practice only, so anything unexpected is `unknown`
 * rather than a guess that could send an irreversible request.
 */
export function migrationStage(a: Pick<ServiceAnswers, "check" | "status">): ZoneService["status"] {
  const state = lower(a.check?.migration_state) ?? lower(a.status?.migration_state);
  const newWaf = lower(a.status?.new_waf_status);
  const oldWaf = lower(a.status?.old_waf_status);
  if (state === "validation" || (newWaf === "enabled" && oldWaf === "enabled")) return "validation";
  if (state === "finished" || (newWaf === "enabled" && oldWaf !== null && oldWaf !== "enabled")) return "finished";
  if ((state === "start" || state === "pending") && newWaf !== "enabled") return "start";
  if (state === null && newWaf === "disabled") return "start";
  return "unknown";
}

/** Drops the empty `id`/`version`/`ref` the service sends for rules that do not exist yet. */
function withoutEmptyIds(ruleset: Ruleset): Ruleset {
  return {
    ...ruleset,
    rules: ruleset.rules.map((rule) => {
      const copy: RulesetRule = { ...rule };
      if (copy.id === "") delete copy.id;
      if (copy.version === "") delete copy.version;
      if (copy.ref === "") delete copy.ref;
      return copy;
    }),
  };
}

/** The live entry point as Terraform will hold it after the import: rule ids and versions are computed. */
function fromEntrypoint(ep: Ruleset & { id: string }): Ruleset {
  const out: Ruleset = {
    name: ep.name,
    rules: ep.rules.map((rule) => {
      const { id: _id, version: _version, ...rest } = rule;
      return rest as RulesetRule;
    }),
  };
  if (typeof ep.description === "string" && ep.description !== "") out.description = ep.description;
  return out;
}

/**
 * The ruleset the service makes exact for a zone: once migrated, the live entry point (what the import
 * brings into state, so the plan shows no change); before, the service's equivalent configuration.
 */
export function serviceRuleset(a: ServiceAnswers): { ruleset: Ruleset; source: ZoneService["rulesetSource"] } | null {
  if (a.error !== null) return null;
  if (migrationStage(a) === "finished" && a.entrypoint) return { ruleset: fromEntrypoint(a.entrypoint), source: "entrypoint" };
  if (a.config) return { ruleset: withoutEmptyIds(a.config), source: "service-config" };
  return null;
}

/**
 * Analysis options with the service's rulesets and entry point ids. What the user gave explicitly
 * (`--config-json`, `--ruleset-id`) wins over the service.
 */
export function withServiceAnswers(opts: AnalyzeOptions, answers: readonly ServiceAnswers[]): AnalyzeOptions {
  const configRulesets = inputRecord<Ruleset>();
  const rulesetIds = inputRecord<string>();
  for (const a of answers) {
    const rs = serviceRuleset(a);
    if (rs) configRulesets[a.zoneId] = rs.ruleset;
    if (a.error === null && a.entrypoint) rulesetIds[a.zoneId] = a.entrypoint.id;
  }
  const zonePlans = inputRecord<ZonePlan>();
  for (const a of answers) if (a.error === null && a.plan && a.plan !== "unknown") zonePlans[a.zoneId] = a.plan;
  for (const [zone, rs] of Object.entries(opts.configRulesets ?? {})) configRulesets[zone] = rs;
  for (const [zone, id] of Object.entries(opts.rulesetIds ?? {})) rulesetIds[zone] = id;
  for (const [zone, plan] of Object.entries(opts.zonePlans ?? {})) zonePlans[zone] = plan;
  return { ...opts, configRulesets, rulesetIds, zonePlans };
}

/** The `zones[].service` entry of a zone. */
export function zoneServiceOf(a: ServiceAnswers, explicitConfig = false): ZoneService {
  const fetched = a.calls.map((c) => c.fetchedAt).sort();
  const rs = explicitConfig ? null : serviceRuleset(a);
  const out: ZoneService = {
    compatible: a.error === null ? (a.check?.compatible ?? null) : null,
    migrationState: a.error === null ? (a.check?.migration_state ?? null) : null,
    status: a.error === null ? migrationStage(a) : "unknown",
    rulesetId: a.error === null ? (a.entrypoint?.id ?? null) : null,
    rulesetSource: rs?.source ?? "offline",
    fetchedAt: fetched[0] ?? null,
    fromCache: a.calls.length > 0 && a.calls.every((c) => c.fromCache),
    calls: a.calls,
  };
  if (a.plan !== undefined) out.plan = a.error === null ? a.plan : null;
  if (a.error !== null) out.error = a.error;
  return out;
}

/** A rule as it decides traffic: ids, versions, refs and wording left out, keys in one order. */
function canonicalRule(rule: RulesetRule): string {
  const { id: _i, version: _v, ref: _r, description: _d, ...rest } = rule;
  return stableJson(rest);
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** How two rule lists differ, in words; null when they decide the same. */
export function rulesetDifference(offline: Ruleset, service: Ruleset): string | null {
  const a = offline.rules.map(canonicalRule);
  const b = service.rules.map(canonicalRule);
  if (a.length === b.length && a.every((r, i) => r === b[i])) return null;
  const inService = new Set(b);
  const inOffline = new Set(a);
  const onlyOffline = a.filter((r) => !inService.has(r)).length;
  const onlyService = b.filter((r) => !inOffline.has(r)).length;
  const counts = `the offline rules give ${a.length} rule${a.length === 1 ? "" : "s"}, the service ${b.length}`;
  if (onlyOffline === 0 && onlyService === 0) return `${counts}; the same rules in another order`;
  return `${counts}; ${onlyOffline} offline rule${onlyOffline === 1 ? "" : "s"} not in the service's, ${onlyService} of the service's not offline`;
}

/**
 * The findings the service's answers add for one zone: where the service and the offline rules disagree
 * (SERVICE_DISAGREES), a zone already migrated or in validation, and a zone the service could not be
 * asked about (SERVICE_CALL_FAILED). `offline` is the zone's entry from the analysis without the service.
 */
export function serviceFindings(offline: ZoneReport, a: ServiceAnswers, at: { file: string | null; line: number | null }): Finding[] {
  const zoneId = offline.zoneId;
  const loc = { zoneId, file: at.file, line: at.line };
  if (a.error !== null) {
    return [finding("SERVICE_CALL_FAILED", `the Cloudflare API could not tell about this zone (${a.error}): its entry is offline only`, loc, { reason: a.error })];
  }
  const out: Finding[] = [];
  const stage = migrationStage(a);
  if (a.check && a.check.compatible !== offline.compatible) {
    const message = a.check.compatible
      ? "the service says the zone is compatible, but Terraform still declares a URI-based WAF override: it was deleted outside Terraform; remove its block"
      : "the service says the zone is not compatible, but Terraform declares no URI-based WAF override: one exists outside Terraform; delete it (Delete a WAF override) before migrating";
    out.push(finding("SERVICE_DISAGREES", `compatibility: ${message}`, loc, { on: "compatible", service: a.check.compatible, offline: offline.compatible }));
  }
  const rs = serviceRuleset(a);
  if (rs) {
    const diff = rulesetDifference(offline.ruleset, rs.ruleset);
    if (diff !== null) {
      const whose = rs.source === "entrypoint" ? "the live entry point ruleset" : "the service's equivalent configuration";
      out.push(finding("SERVICE_DISAGREES", `the ruleset: ${diff}; the generated ruleset is ${whose}`, loc, { on: "ruleset", source: rs.source, offlineRules: offline.ruleset.rules.length, serviceRules: rs.ruleset.rules.length }));
    }
  }
  const rulesetId = a.entrypoint?.id ?? null;
  if (stage === "finished") {
    out.push(
      finding(
        "ZONE_ALREADY_MIGRATED",
        `the service says the zone is already migrated (new WAF on, previous WAF off): it gets no migration request; import its ${MANAGED_PHASE} entry point${rulesetId ? ` (ruleset id ${rulesetId})` : ""} and remove the legacy resources`,
        loc,
        { rulesetId },
      ),
    );
  } else if (stage === "validation") {
    out.push(
      finding(
        "ZONE_IN_VALIDATION",
        `the service says the zone is in validation (both WAFs on${rulesetId ? `, entry point ruleset ${rulesetId}` : ""}): finish it with \`cf-waf-migrate api migrate --from REPORT --ledger FILE --finish\` or \`api migrate --zone ${zoneId} --mode pending\``,
        loc,
        { rulesetId },
      ),
    );
  } else if (stage === "unknown") {
    out.push(finding("SERVICE_DISAGREES", `migration state: the service's check and status do not say clearly where the migration stands (${JSON.stringify(a.status ?? {})}); the zone is treated as not ready`, loc, { on: "migrationState" }));
  }
  return out;
}

/**
 * Adds `service` to every zone entry whose id the service answered for (all entries of a zone id, when an
 * estate lists a zone once per root), and the service's findings once per zone id.
 */
export function decorateReport(report: Report, offline: AnalysisResult, answers: ReadonlyMap<string, ServiceAnswers>, explicitConfigZones: ReadonlySet<string> = new Set()): void {
  const offlineZones = new Map(offline.zones.map((z) => [z.zone.zoneId, z] as const));
  const added: Finding[] = [];
  for (const zone of report.zones) {
    const a = answers.get(zone.zoneId);
    if (a) zone.service = zoneServiceOf(a, explicitConfigZones.has(zone.zoneId));
  }
  for (const [zoneId, a] of answers) {
    const z = offlineZones.get(zoneId);
    if (!z) continue;
    const anchor = offline.findings.find((f) => f.zoneId === zoneId && f.file !== null);
    added.push(...serviceFindings(z.zone, a, { file: anchor?.file ?? null, line: anchor?.line ?? null }));
  }
  if (added.length) report.findings = sortFindings([...report.findings, ...added]);
}
