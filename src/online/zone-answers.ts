// The service's answers for one zone: check, status, then the configuration (until the zone is finished)
// and the entry point (once it has one). Each answer comes from the cache when fresh enough, else from the
// service and is then cached. The first call that fails ends the zone's lookup with its reason; the
// caller reports it and goes on with the other zones.

import type { ApiRequest } from "../api/client.js";
import { checkCompatibility, checkRequest, configRequest, getEntrypoint, getEntrypointRequest, getMigrationConfig, getMigrationStatus, getZone, statusRequest, zoneRequest } from "../api/endpoints.js";
import { zonePlanOf } from "../api/types.js";
import { ApiError } from "../api/errors.js";
import type { Ruleset, ServiceCall } from "../core/model.js";
import { migrationStage, type ServiceAnswers } from "../core/service-view.js";
import type { OnlineSession } from "./session.js";

/** `askPlan`: the offline analysis does not know the zone's plan (decides validation mode), so ask for it. */
export async function fetchZoneAnswers(zoneId: string, session: OnlineSession, askPlan = false): Promise<ServiceAnswers> {
  const answers: ServiceAnswers = { zoneId, check: null, status: null, config: null, entrypoint: null, calls: [], error: null };
  const ask = async <T>(operation: ServiceCall["operation"], req: ApiRequest, run: () => Promise<T>): Promise<T> => {
    const parts = { baseUrl: session.baseUrl, path: req.path, zoneId, ...(req.query ? { query: req.query } : {}) };
    const hit = await session.cache.get<T>(parts);
    if (hit) {
      answers.calls.push({ operation, fetchedAt: hit.fetchedAt, fromCache: true });
      return hit.result;
    }
    const result = await run();
    const fetchedAt = new Date(session.now()).toISOString();
    await session.cache.put(parts, { fetchedAt, result });
    answers.calls.push({ operation, fetchedAt, fromCache: false });
    return result;
  };
  let operation: ServiceCall["operation"] = "check";
  try {
    const check = await ask("check", checkRequest(zoneId), () => checkCompatibility(session.client, zoneId));
    answers.check = { compatible: check.compatible, migration_state: check.migration_state };
    operation = "status";
    answers.status = await ask("status", statusRequest(zoneId), () => getMigrationStatus(session.client, zoneId));
    const stage = migrationStage(answers);
    if (stage !== "finished") {
      operation = "config";
      answers.config = await ask<Ruleset>("config", configRequest(zoneId), () => getMigrationConfig(session.client, zoneId));
    }
    if (askPlan) {
      operation = "zone";
      answers.plan = await ask("zone", zoneRequest(zoneId), async () => zonePlanOf(await getZone(session.client, zoneId)));
    }
    if (stage !== "start") {
      operation = "entrypoint";
      answers.entrypoint = await ask("entrypoint", getEntrypointRequest(zoneId), () => entrypointOrNull(session, zoneId));
    }
  } catch (e) {
    const reason = e instanceof ApiError ? e.message : `${(e as Error).message ?? String(e)}`;
    answers.error = session.client.redact(`${operation}: ${reason}`);
  }
  return answers;
}

/** Before the migration a zone has no entry point: the service answers 404, which is an answer, not a failure. */
async function entrypointOrNull(session: OnlineSession, zoneId: string): Promise<(Ruleset & { id: string }) | null> {
  try {
    return await getEntrypoint(session.client, zoneId);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}
