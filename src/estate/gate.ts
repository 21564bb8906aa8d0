// The provider-upgrade gate over an estate: one decision per (root, workspace) instance, each against
// its own root's `required_providers` and lock file and its own legacy resources. A gate over many roots
// fails when any instance fails.
import { evaluateProviderGate, type ProviderGateOutcome } from "../terraform/versions/provider-gate.js";
import type { ProviderInfo } from "../terraform/versions/providers.js";
import { instanceName } from "./analyze.js";
import { dedupeErrors, type Estate } from "./load.js";

export function estateProviderGate(estate: Pick<Estate, "instances">, info: ProviderInfo, targetVersion: string | undefined): ProviderGateOutcome {
  const out: ProviderGateOutcome = { findings: [], errors: [], summaries: [] };
  const several = estate.instances.length > 1;
  for (const inst of estate.instances) {
    const own: ProviderInfo = { roots: rootProviderInfo(info, inst.dir).roots, errors: [] };
    const result = evaluateProviderGate(inst.ws, own, targetVersion, { nameRoot: several });
    const at = { root: inst.root, workspace: inst.workspace };
    out.findings.push(...result.findings.map((f) => Object.assign(f, at)));
    out.summaries.push(...result.summaries.map((s) => (several ? `${instanceName(inst)}: ${s}` : s)));
    out.errors.push(...result.errors);
  }
  // A bad constraint in a module two roots share is one error.
  out.errors = dedupeErrors(out.errors);
  return out;
}

/** The provider facts of one root (constraints, lock file), for the instances of that root. */
export function rootProviderInfo(info: ProviderInfo, dir: string): ProviderInfo {
  return { roots: info.roots.filter((r) => r.dir === dir), errors: info.errors };
}
