// The provider-upgrade gate over a whole workspace: one decision per root configuration (its
// `required_providers` entries, its lock file, the legacy resources that belong to it). What `gate` adds to
// scan's findings; kept apart from the yargs command so a CI script can call it as a library function.
import path from "node:path";
import type { Finding, InputError, InventoryResource } from "../../core/model.js";
import { LEGACY_DATA_SOURCES, LEGACY_WAF_RESOURCE_TYPES } from "../../core/legacy-types.js";
import { providerFindings, type LegacyAddress } from "../../core/provider-gate.js";
import { stateOwners, type ProviderInfo, type RootProviders } from "./providers.js";
import type { Workspace } from "../inventory/workspace.js";

export interface ProviderGateOutcome {
  findings: Finding[];
  errors: InputError[];
  /** One sentence per root configuration on the provider upgrade. */
  summaries: string[];
}

/** Legacy WAF resources and legacy data sources: the provider removed both in 4.0. */
export function legacyAddressesOf(resources: readonly InventoryResource[]): LegacyAddress[] {
  return resources
    .filter((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type) || LEGACY_DATA_SOURCES.has(r.type))
    .map((r) => ({ address: r.address, file: r.file, line: r.line, zoneId: r.zoneId, ...(r.noInstances ? { noInstances: true } : {}) }));
}

/**
 * One decision per root configuration: its own and its modules' `required_providers` entries, its lock file,
 * and the legacy resources that belong to it: those whose blocks live in its module directories, and those
 * only state knows, from the state files that belong to it (`stateOwners`: matched by the addresses they share).
 */
export function evaluateProviderGate(
  ws: Pick<Workspace, "resources" | "tree" | "states">,
  info: ProviderInfo,
  targetVersion: string | undefined,
  /** Name the root in messages and details even when `info` holds one (one root of an estate). */
  opts: { nameRoot?: boolean } = {},
): ProviderGateOutcome {
  const legacy = legacyAddressesOf(ws.resources);
  const roots: RootProviders[] = info.roots.length
    ? info.roots
    : [{ root: ".", dir: "", requirements: [], lock: null, moduleDirs: [], anchor: null }];
  // Which roots each state-only address belongs to.
  const stateOnlyOwners = new Map<string, Set<RootProviders>>();
  if (roots.length > 1) {
    for (const state of ws.states) {
      const owners = stateOwners(ws.tree, info, state);
      for (const inst of state.instances) {
        const set = stateOnlyOwners.get(inst.address) ?? new Set<RootProviders>();
        for (const o of owners) set.add(o);
        stateOnlyOwners.set(inst.address, set);
      }
    }
  }
  const belongs = (a: LegacyAddress, root: RootProviders): boolean => {
    if (roots.length === 1) return true;
    if (a.file !== null) return root.moduleDirs.includes(path.posix.dirname(a.file));
    return stateOnlyOwners.get(a.address)?.has(root) ?? true;
  };
  const out: ProviderGateOutcome = { findings: [], errors: [], summaries: [] };
  for (const root of roots) {
    const mine = legacy.filter((a) => belongs(a, root));
    const result = providerFindings({
      constraints: root.requirements.map((r) => ({ text: r.constraint, file: r.file, line: r.line, versionLine: r.versionLine })),
      lock: root.lock && root.lock.version !== null ? { version: root.lock.version, file: root.lock.file, line: root.lock.line } : null,
      ...(targetVersion !== undefined ? { targetVersion } : {}),
      legacyAddresses: mine,
      fallback: root.anchor,
      ...(roots.length > 1 || opts.nameRoot ? { root: root.root } : {}),
    });
    out.findings.push(...result.findings);
    out.errors.push(...result.errors);
    out.summaries.push(result.summary);
  }
  // The same bad constraint in a module two roots share is one error.
  const seen = new Set<string>();
  out.errors = out.errors.filter((e) => {
    const k = `${e.file}\u0000${e.line}\u0000${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return out;
}
