// `--online` over an estate: the offline analysis of every instance, then the service's answers for every
// zone it found (asked once per zone, whatever number of roots hold it), then the analysis again with them.
import type { OnlineSession } from "../online/session.js";
import { serviceOptions } from "../online/enrich.js";
import type { Report } from "../core/model.js";
import type { ZoneAnalysis } from "../core/analyze.js";
import { analyzeEstate, type EstateAnalysis, type EstateAnalyzeOptions, type InstanceInput } from "./analyze.js";

export async function analyzeEstateOnline(
  inputs: InstanceInput[],
  options: EstateAnalyzeOptions,
  session: OnlineSession | null,
): Promise<{ analysis: EstateAnalysis; decorate: (report: Report) => void }> {
  const offline = analyzeEstate(inputs, options);
  if (session === null) return { analysis: offline, decorate: () => undefined };
  // One entry per zone: the one holding its ruleset (a split zone's other entries have none).
  const perZone = new Map<string, ZoneAnalysis>();
  for (const z of offline.zones) if (!perZone.has(z.zone.zoneId) || !z.zone.rulesetIn) perZone.set(z.zone.zoneId, z);
  const online = await serviceOptions({ zones: [...perZone.values()], findings: offline.findings }, options, session);
  return {
    analysis: analyzeEstate(inputs, { ...options, ...online.options }),
    decorate: (report) => {
      online.decorate(report);
      // The service's findings are about a zone: they belong to the instance holding its ruleset.
      for (const f of report.findings) {
        const z = f.root === undefined && f.zoneId !== null ? perZone.get(f.zoneId) : undefined;
        if (z) Object.assign(f, { root: z.zone.root, workspace: z.zone.workspace });
      }
    },
  };
}
