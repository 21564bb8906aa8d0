// The JSON report of an estate: the shared report (core/report.ts) with the instances it covers (`roots`)
// and every resource stamped with its root and workspace. Pure.
import { migrationSyntaxMajor } from "../core/version-fit.js";
import { rulesetWorkspaceGate } from "../core/workspace-ruleset.js";
import type { Finding, InputError, PlanStep, Report } from "../core/model.js";
import { buildReport, type ReportAnalysis, type ReportedResource } from "../core/report.js";
import type { InstanceAnalysis, InstanceInput } from "./analyze.js";
import type { EstateInstance } from "./load.js";

/** What the report needs of one instance: its names, states and resources as the report lists them. */
export interface ReportedInstance extends Pick<EstateInstance, "root" | "workspace" | "stateFiles"> {
  ws: { resources: readonly ReportedResource[] };
}

/** What the report needs of an estate's analysis: each instance's migrated zones, the zones, the findings. */
export interface EstateReportAnalysis extends ReportAnalysis {
  instances: Pick<InstanceAnalysis, "root" | "workspace" | "migratedZones">[];
}

export function buildEstateReport(input: {
  version: string;
  root?: string;
  instances: readonly ReportedInstance[];
  analysis: EstateReportAnalysis;
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
export function instanceInputs(instances: EstateInstance[]): InstanceInput[] {
  return instances.map(instanceInput);
}

/**
 * The workspace a root's ruleset is limited to when several workspaces of the root are read (its resource
 * exists in that workspace only: core/workspace-ruleset.ts), else null. Scan and plan name and import it alike.
 */
export function rulesetWorkspaceOf(i: Pick<EstateInstance, "workspace" | "workspacesOfRoot">): string | null {
  return rulesetWorkspaceGate(i.workspace, i.workspacesOfRoot ?? 1);
}

/** The analysis input of one loaded instance. */
export function instanceInput(i: EstateInstance): InstanceInput {
  const gate = rulesetWorkspaceOf(i);
  // As plan writes them: import ids for provider 5 (`zones/…`), the ruleset limited to this workspace.
  const options = {
    ...(migrationSyntaxMajor(i.ws.resources, i.rulesetMajor ?? 4) === 5 ? { providerMajor: 5 as const } : {}),
    ...(gate !== null ? { rulesetWorkspace: gate } : {}),
  };
  return {
    root: i.root,
    workspace: i.workspace,
    domain: i.ws.domain,
    stateKnown: i.ws.stateKnown,
    unfollowedModulePrefixes: i.ws.remoteModules.map((m) => m.path),
    findings: i.ws.findings,
    ...(Object.keys(options).length > 0 ? { options } : {}),
  };
}
