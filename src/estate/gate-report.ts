// What `gate` decides over an estate, as one report: scan's findings, the provider-upgrade check of each
// instance against its own root's constraints and lock file, and what plan would refuse or warn about for
// the versions each root pins — before anyone runs it. Reads the provider facts (lock files); writes nothing.
// Offline, `gate` gets the same findings from a streamed scan (estate/gate-stream.ts): `gateFindings` is shared.
import type { Finding, InputError, Report, Ruleset, ZonePlan } from "../core/model.js";
import type { OnlineSession } from "../online/session.js";
import { planVersions, versionFindingsOf, zoneFitFindings } from "../plan/versions.js";
import type { ConfigTree } from "../terraform/config/modules.js";
import { collectProviderInfo } from "../terraform/versions/providers.js";
import { estateProviderGate, oneFindingPerProviderCause, rootProviderInfo, type GateInstance } from "./gate.js";
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
  // The tree holds every root (other shards' too): the gate reads the lock files and constraints of its own.
  const own = new Set(estate.roots.map((r) => r.node));
  const tree = { ...estate.tree, roots: estate.tree.roots.filter((n) => own.has(n)) };
  const gate = await gateFindings(estate.instances, tree, estate.base, input.target, (fit) =>
    analysis.instances.map((a, i) => ({
      fits: a.analysis.zones.map((z) => fit[i]!(z.zone.ruleset)),
      // A split zone's ruleset is imported in the instance that holds it, not here.
      imports: a.analysis.zones.filter((z) => !z.zone.rulesetIn).length,
    })),
  );
  const report = buildEstateReport({
    version: input.version,
    root: input.root,
    instances: estate.instances,
    analysis,
    extraFindings: gate.findings,
    errors: [...estate.errors, ...gate.errors],
  });
  decorate(report);
  return { report, summaries: gate.summaries };
}

/** Each instance's zones as fitted: what fitting each zone's ruleset found (in its zone order), and how many rulesets it imports. */
export type ZoneFits = (fit: readonly ((ruleset: Ruleset) => Finding[])[]) => { fits: Finding[][]; imports: number }[];

export interface GateFindings {
  /** The findings the gate adds to scan's. */
  findings: Finding[];
  /** Lock files or configuration files that could not be read, bad constraints. */
  errors: InputError[];
  summaries: string[];
}

/**
 * The gate's own findings: each instance judged against its own root's provider constraints and lock file
 * (`tree`: every root's configuration), and what plan would refuse or warn about for the versions each root
 * pins (issue 21), from each instance's zones after the split-zone join (`zoneFits`, given a fitter per instance).
 */
export async function gateFindings(instances: readonly GateInstance[], tree: ConfigTree, base: string, target: string | undefined, zoneFits: ZoneFits): Promise<GateFindings> {
  const providers = await collectProviderInfo(tree, base);
  const gate = estateProviderGate({ instances }, providers, target);
  // The roots' findings do not depend on how many rulesets are imported: only which of them are reported does.
  const versions = instances.map((inst) => planVersions(inst.ws, rootProviderInfo(providers, inst.dir), 1));
  const zones = zoneFits(versions.map((v) => (ruleset: Ruleset) => zoneFitFindings(v, ruleset)));
  const found = instances.flatMap((inst, i) => versionFindingsOf(versions[i]!, zones[i]!.imports, zones[i]!.fits).map((f) => Object.assign(f, { root: inst.root, workspace: inst.workspace })));
  return { findings: oneFindingPerProviderCause(gate.findings, found), errors: [...providers.errors, ...gate.errors], summaries: gate.summaries };
}
