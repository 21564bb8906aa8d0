// The provider-upgrade gate over an estate: one decision per (root, workspace) instance, each against
// its own root's `required_providers` and lock file and its own legacy resources. A gate over many roots
// fails when any instance fails.
import type { Finding } from "../core/model.js";
import { evaluateProviderGate, type ProviderGateOutcome } from "../terraform/versions/provider-gate.js";
import type { ProviderInfo } from "../terraform/versions/providers.js";
import { instanceName } from "./analyze.js";
import type { Workspace } from "../terraform/inventory/workspace.js";
import { dedupeErrors, type EstateInstance } from "./load.js";

/** What the gate reads of one instance: its names and root directory, its resources and its root's configuration. */
export interface GateInstance extends Pick<EstateInstance, "root" | "workspace" | "dir"> {
  ws: Pick<Workspace, "resources" | "tree" | "states">;
}

export function estateProviderGate(estate: { instances: readonly GateInstance[] }, info: ProviderInfo, targetVersion: string | undefined): ProviderGateOutcome {
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

/**
 * One cause, one finding. A root that still holds legacy resources while its pin or lock already admits no
 * provider up to 3.35 gets PROVIDER_FEATURE_MISSING (construct "legacy resources": the migration cannot run
 * until the constraint is lowered to ~> 3.35; it blocks the zones). PROVIDER_UPGRADE_BLOCKED says something
 * else: the provider may still be moved past 3.35 while those resources remain (migrate first; it blocks no
 * zone). For the same instance the first includes the second, so the gate drops that instance's
 * PROVIDER_UPGRADE_BLOCKED and gives its addresses to a copy of the PROVIDER_FEATURE_MISSING finding.
 * Returns the gate's provider findings (`upgrade` kept, then `versions`); neither list nor any finding in them
 * is changed, so a report built from the same findings (scan, plan) stays as it was.
 */
export function oneFindingPerProviderCause(upgrade: Finding[], versions: Finding[]): Finding[] {
  const key = (f: Finding) => `${f.root ?? ""}\u0000${f.workspace ?? ""}`;
  const pinnedPast = new Map<string, Finding>();
  for (const f of versions) {
    if (f.code === "PROVIDER_FEATURE_MISSING" && (f.details as { construct?: string } | undefined)?.construct === "legacy resources") pinnedPast.set(key(f), f);
  }
  const covered = new Map<Finding, string[]>();
  const kept = upgrade.filter((f) => {
    const covering = f.code === "PROVIDER_UPGRADE_BLOCKED" ? pinnedPast.get(key(f)) : undefined;
    if (!covering) return true;
    const addresses = (f.details as { addresses?: string[] } | undefined)?.addresses;
    if (addresses) covered.set(covering, addresses);
    return false;
  });
  const withAddresses = versions.map((f) => {
    const addresses = covered.get(f);
    return addresses ? { ...f, details: { ...(f.details ?? {}), addresses } } : f;
  });
  return [...kept, ...withAddresses];
}
