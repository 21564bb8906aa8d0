// `--online` for the reporting commands: the zones of the offline analysis are looked up at the service
// (once per zone id, even when an estate lists a zone in several roots; --jobs at a time, under the rate
// limiter), the analysis is redone with the service's rulesets and entry point ids, and the report gets
// `zones[].service` and the service's findings. A zone whose lookup failed keeps its offline entry.

import { analyze, type AnalysisResult, type AnalyzeOptions, type DomainInventory } from "../core/analyze.js";
import type { Report } from "../core/model.js";
import { decorateReport, withServiceAnswers, type ServiceAnswers } from "../core/service-view.js";
import { isZoneId } from "../api/endpoints.js";
import { mapWithConcurrency } from "./limiter.js";
import type { OnlineSession } from "./session.js";
import { fetchZoneAnswers } from "./zone-answers.js";

/** Looks every zone id up, `session.jobs` at a time. Ids that are expressions (not known offline) are skipped. */
export async function collectServiceAnswers(zoneIds: readonly string[], session: OnlineSession, planUnknown: ReadonlySet<string> = new Set()): Promise<Map<string, ServiceAnswers>> {
  const ids = [...new Set(zoneIds)].filter(isZoneId);
  const sentBefore = session.sent();
  const results = await mapWithConcurrency(ids, session.jobs, (id) => fetchZoneAnswers(id, session, planUnknown.has(id)));
  const out = new Map<string, ServiceAnswers>();
  results.forEach((r, i) => {
    // fetchZoneAnswers reports failures in the answers; a throw here would be a bug, still reported per zone.
    const zoneId = ids[i]!;
    out.set(zoneId, r.ok ? r.value : { zoneId, check: null, status: null, config: null, entrypoint: null, calls: [], error: session.client.redact(String((r.error as Error)?.message ?? r.error)) });
  });
  await session.saveWindow();
  const calls = [...out.values()].flatMap((a) => a.calls);
  const cached = calls.filter((c) => c.fromCache).length;
  const failed = [...out.values()].filter((a) => a.error !== null).length;
  const waited = session.limiter.stats().waitedMs;
  session.log(
    `online: ${ids.length} zone${ids.length === 1 ? "" : "s"}, ${session.sent() - sentBefore} request${session.sent() - sentBefore === 1 ? "" : "s"} sent, ${cached} answer${cached === 1 ? "" : "s"} from the cache${failed ? `, ${failed} zone${failed === 1 ? "" : "s"} failed` : ""}${waited > 0 ? `, ${Math.round(waited / 1000)} s waited for the rate limit` : ""}`,
  );
  return out;
}

export interface OnlineAnalysis {
  /** The analysis with the service's rulesets and ids (the offline one when not online). */
  analysis: AnalysisResult;
  /** The options that produced it (a command that re-runs analyze passes these). */
  options: AnalyzeOptions;
  /** Adds `zones[].service` and the service's findings to a report built from `analysis`. */
  decorate(report: Report): void;
}

/** Offline when `session` is null; else the analysis the service's answers complete. */
export async function analyzeOnline(domain: DomainInventory, options: AnalyzeOptions, session: OnlineSession | null): Promise<OnlineAnalysis> {
  const offline = analyze(domain, options);
  if (session === null) return { analysis: offline, options, decorate: () => undefined };
  const online = await serviceOptions(offline, options, session);
  const analysis = analyze(domain, online.options);
  return { analysis, options: online.options, decorate: online.decorate };
}

/** The analysis options completed by the service, for a command that runs analyze itself (apply). */
export async function serviceOptions(offline: AnalysisResult, options: AnalyzeOptions, session: OnlineSession): Promise<Omit<OnlineAnalysis, "analysis">> {
  const answers = await collectServiceAnswers(
    offline.zones.map((z) => z.zone.zoneId),
    session,
    new Set(offline.zones.filter((z) => z.zone.plan === "unknown").map((z) => z.zone.zoneId)),
  );
  const explicit = new Set(Object.keys(options.configRulesets ?? {}));
  return {
    options: withServiceAnswers(options, [...answers.values()]),
    decorate: (report) => decorateReport(report, offline, answers, explicit),
  };
}

/** For `apply --online`: a hook that completes the analysis options before apply analyses the root. */
export function completeWithService(session: OnlineSession): (domain: DomainInventory, options: AnalyzeOptions) => Promise<AnalyzeOptions> {
  return async (domain, options) => (await serviceOptions(analyze(domain, options), options, session)).options;
}
