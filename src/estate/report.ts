// The JSON report of an estate: the shared report (core/report.ts) with the instances it covers (`roots`)
// and every resource stamped with its root and workspace. Pure.
import type { Finding, InputError, PlanStep, Report } from "../core/model.js";
import { buildReport } from "../core/report.js";
import type { EstateAnalysis } from "./analyze.js";
import type { EstateInstance } from "./load.js";

export function buildEstateReport(input: {
  version: string;
  root?: string;
  instances: Pick<EstateInstance, "root" | "workspace" | "stateFiles" | "ws">[];
  analysis: EstateAnalysis;
  extraFindings?: Finding[];
  errors: InputError[];
  planSteps?: PlanStep[];
}): Report {
  const resources = input.instances.flatMap((i) => i.ws.resources.map((r) => ({ ...r, root: i.root, workspace: i.workspace })));
  return buildReport({
    version: input.version,
    ...(input.root !== undefined ? { root: input.root } : {}),
    roots: input.instances.map((i) => {
      const migrated = input.analysis.instances.find((a) => a.root === i.root && a.workspace === i.workspace)?.migratedZones ?? [];
      return { path: i.root, workspace: i.workspace, states: i.stateFiles, ...(migrated.length ? { migratedZones: migrated } : {}) };
    }),
    resources,
    analysis: input.analysis,
    ...(input.extraFindings ? { extraFindings: input.extraFindings } : {}),
    errors: input.errors,
    ...(input.planSteps ? { planSteps: input.planSteps } : {}),
  });
}

/** The analysis input of each loaded instance. */
export function instanceInputs(instances: EstateInstance[]) {
  return instances.map((i) => ({
    root: i.root,
    workspace: i.workspace,
    domain: i.ws.domain,
    stateKnown: i.ws.stateKnown,
    unfollowedModulePrefixes: i.ws.remoteModules.map((m) => m.path),
    findings: i.ws.findings,
  }));
}
