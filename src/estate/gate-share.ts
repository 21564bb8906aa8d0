// What `gate`'s checks read of one instance (estate/gate-stream.ts), taken where the instance is built —
// on the main thread or on a root worker (estate/parallel/), which sends it back with its share of the
// report — so that a gated scan builds its instances on every core as a plain scan does. Small and plain:
// the legacy resources' addresses and places, the root's module nodes with only their `terraform {}` blocks
// and the one place a finding about the root points at, and the order of its zones.
import { LEGACY_DATA_SOURCES, LEGACY_WAF_RESOURCE_TYPES } from "../core/legacy-types.js";
import type { InventoryResource } from "../core/model.js";
import type { ConfigResource, ModuleDir } from "../terraform/config/load.js";
import type { ConfigTree, ModuleNode } from "../terraform/config/modules.js";
import { firstInFileOrder } from "../terraform/versions/providers.js";
import type { AnalysedInstance } from "./analyze.js";
import { rootNodeOf } from "./instances.js";
import type { EstateInstance } from "./load.js";

export interface GateShare {
  root: string;
  workspace: string;
  dir: string;
  /** The estate's base (reported paths are relative to it). */
  base: string;
  /** Its legacy WAF resources and data sources, with what the provider checks read of them. */
  resources: InventoryResource[];
  /** Its root's module nodes, each directory slimmed (`slimDir`), without module calls. */
  tree: ConfigTree;
  /** Its zones' ids in its analysis's order (what its version findings are deduplicated in). */
  zoneIds: string[];
}

export function gateShareOf(instance: EstateInstance, analysed: AnalysedInstance): GateShare {
  return {
    root: instance.root,
    workspace: instance.workspace,
    dir: instance.dir,
    base: instance.ws.base,
    resources: instance.ws.resources.filter((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type) || LEGACY_DATA_SOURCES.has(r.type)).map(slimResource),
    tree: slimTree(instance.ws.tree, slimDir),
    zoneIds: analysed.instance.analysis.zones.map((z) => z.zone.zoneId),
  };
}

/**
 * The subtree's roots and their module nodes (in the subtree's order) with each directory as `dirOf` gives
 * it and no module call; `dirOf` may return one directory for nodes that share it.
 */
export function slimTree(sub: ConfigTree, dirOf: (dir: ModuleDir) => ModuleDir): ConfigTree {
  const out: ConfigTree = { roots: [], nodes: [], remoteModules: [], errors: [] };
  const kept = new Map<ModuleNode, ModuleNode>();
  const keep = (n: ModuleNode): ModuleNode => {
    let k = kept.get(n);
    if (!k) kept.set(n, (k = { path: n.path, dir: dirOf(n.dir), call: null, parent: n.parent ? keep(n.parent) : null }));
    return k;
  };
  for (const root of sub.roots) {
    out.roots.push(keep(root));
    for (const n of sub.nodes) if (rootNodeOf(n) === root) out.nodes.push(keep(n));
  }
  return out;
}

/**
 * A directory's `terraform {}` blocks and, standing for its resources and module calls, the one a finding
 * about its root points at when it has no `terraform {}` block: its first legacy block in file order, else
 * its first resource or module call (terraform/versions/providers.ts). Slimming a slimmed directory gives it again.
 */
export function slimDir(dir: ModuleDir): ModuleDir {
  const legacy = firstInFileOrder(dir.resources.filter((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type)));
  const first = legacy ?? firstInFileOrder([...dir.resources, ...dir.moduleCalls]);
  const anchor: ConfigResource[] = first ? [{ mode: "managed", type: legacy?.type ?? "", name: "", file: first.file, line: first.line, body: {} }] : [];
  return { dir: dir.dir, terraformBlocks: dir.terraformBlocks, resources: anchor, moduleCalls: [], variables: {}, locals: {}, errors: [] };
}

/** What the provider checks read of a legacy resource (provider-gate.ts `legacyAddressesOf`, root-versions.ts `rootInput`). */
function slimResource(r: InventoryResource): InventoryResource {
  const { address, type, file, line, zoneId, inConfig, noInstances } = r;
  return { address, type, file, line, zoneId, inConfig, ...(noInstances ? { noInstances } : {}) } as InventoryResource;
}
