// What `gate` decides over an estate, as one report: scan's findings, the provider-upgrade check of each
// instance against its own root's constraints and lock file, and what plan would refuse or warn about for
// the versions each root pins — before anyone runs it. Reads the provider facts (lock files); writes nothing.
import type { Report, ZonePlan } from "../core/model.js";
import type { OnlineSession } from "../online/session.js";
import { versionFindings } from "../plan/versions.js";
import { collectProviderInfo } from "../terraform/versions/providers.js";
import { estateProviderGate, oneFindingPerProviderCause, rootProviderInfo } from "./gate.js";
import type { Estate } from "./load.js";
import { analyzeEstateOnline } from "./online.js";
import { buildEstateReport, instanceInputs } from "./report.js";

export interface GateInput {
  version: string;
  /** The report's `root`: the estate's base as the user sees it. */
  root: string;
  /** `--target-provider`, normalised (`4.52.8`); absent: the next major past 3.35. */
  target?: string;
  zonePlans?: Record<string, ZonePlan>;
  rulesetRoots?: Record<string, string>;
  session?: OnlineSession | null;
}

export interface GateResult {
  report: Report;
  /** The provider upgrade's status, one line per instance (named when there are several). */
  summaries: string[];
}

export async function gateEstate(estate: Estate, input: GateInput): Promise<GateResult> {
  const { analysis, decorate } = await analyzeEstateOnline(instanceInputs(estate.instances), { zonePlans: input.zonePlans, rulesetRoots: input.rulesetRoots }, input.session ?? null);
  // Each instance is judged against its own root's provider constraints and lock file.
  const providers = await collectProviderInfo(estate.tree, estate.base);
  const gate = estateProviderGate(estate, providers, input.target);
  // What plan would refuse or warn about for the versions each root pins (issue 21), before anyone runs it.
  const versions = estate.instances.flatMap((inst, i) =>
    versionFindings(
      inst.ws,
      rootProviderInfo(providers, inst.dir),
      analysis.instances[i]!.analysis.zones.map((z) => z.zone.ruleset),
      // A split zone's ruleset is imported in the instance that holds it, not here.
      analysis.instances[i]!.analysis.zones.filter((z) => !z.zone.rulesetIn).length,
    ).map((f) => Object.assign(f, { root: inst.root, workspace: inst.workspace })),
  );
  const report = buildEstateReport({
    version: input.version,
    root: input.root,
    instances: estate.instances,
    analysis,
    extraFindings: oneFindingPerProviderCause(gate.findings, versions),
    errors: [...estate.errors, ...providers.errors, ...gate.errors],
  });
  decorate(report);
  return { report, summaries: gate.summaries };
}
