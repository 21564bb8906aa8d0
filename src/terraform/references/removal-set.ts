// What step 6 removes, for `plan` (legacy-removal.patch) and `apply` (its block edits) alike: the legacy
// blocks, the outputs and locals whose only job is to expose or feed them (transitively, across module
// outputs), and the LEGACY_REFERENCE findings for every other reference that would dangle.
import { withLine } from "../../core/report-paths.js";
import { finding, sortFindings } from "../../core/findings.js";
import type { Finding, InputError } from "../../core/model.js";
import { removalClosure, type DanglingReference, type GraphItem, type RemovedItem } from "../../core/references/closure.js";
import type { ConfigResource } from "../config/load.js";
import { LEGACY_BLOCK_TYPES, LEGACY_DATA_SOURCES, URI_OVERRIDE_TYPE } from "../../core/legacy-types.js";
import { configAddressFor } from "../inventory/inventory.js";
import type { RemovalTarget } from "../edit/legacy-removal.js";
import type { ConfigTree } from "../config/modules.js";
import type { Workspace } from "../inventory/workspace.js";
import { readReferenceGraph } from "./graph.js";

/** A block step 6 deletes: a legacy package, group or rule, or a legacy data source. */
export function isLegacyBlock(mode: "managed" | "data", type: string): boolean {
  return mode === "managed" ? LEGACY_BLOCK_TYPES.has(type) : LEGACY_DATA_SOURCES.has(type);
}

export function isUriOverrideBlock(mode: "managed" | "data", type: string): boolean {
  return mode === "managed" && type === URI_OVERRIDE_TYPE;
}

export interface BlockTargets {
  /** Each block once (a module called twice has one block in one file). */
  blocks: ConfigResource[];
  /**
   * The resources those blocks are, with their module paths and without instance keys, one per module
   * call path that instantiates the file (`module.waf.cloudflare_waf_group.g`): what state is checked for.
   */
  configAddresses: string[];
}

/** The blocks of the configuration tree that `keep` selects, and the resources they declare. */
export function blockTargets(tree: ConfigTree, keep: (r: ConfigResource) => boolean): BlockTargets {
  const seen = new Set<string>();
  const blocks: ConfigResource[] = [];
  const configAddresses = new Set<string>();
  for (const node of tree.nodes) {
    for (const r of node.dir.resources) {
      if (!keep(r)) continue;
      configAddresses.add(configAddressFor(node, r));
      const key = `${r.file}\u0000${r.mode}\u0000${r.type}\u0000${r.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      blocks.push(r);
    }
  }
  return { blocks, configAddresses: [...configAddresses].sort() };
}

export interface ExposingItem {
  file: string;
  line: number;
  /** `output` or `local`. */
  kind: "output" | "local";
  name: string;
  /** Module path of one instance of its directory (`""` for a root). */
  modulePath: string;
  /** The removed references it only exposes (`cloudflare_waf_package.p`, `module.waf.package_id`). */
  exposes: string[];
}

export interface LegacyRemovalSet {
  /** Legacy resource and data source blocks, once per file and name (a module called twice has one block). */
  blocks: ConfigResource[];
  /**
   * Config addresses (module path included) of every legacy block, for every module instance path: the
   * resource set step 5 removes from state and step 6 checks against a fresh `state list`. Only resources
   * and data sources: the outputs and locals removed with them have no state entries.
   */
  blockConfigAddresses: string[];
  /** URI override blocks (step 0 deletes them; they are refused while in state). */
  overrideBlocks: ConfigResource[];
  /** Outputs and locals removed with them. */
  exposing: ExposingItem[];
  /** Everything step 6's edit removes, for buildRemoval. */
  targets: RemovalTarget[];
  /** Outputs and locals that only expose URI override blocks: they go with them in step 0's patch. */
  overrideExposing: ExposingItem[];
  overrideTargets: RemovalTarget[];
  /** LEGACY_REFERENCE: references that would dangle; the migration refuses while one remains. */
  findings: Finding[];
  /** Files that could not be read for the reference graph (also reported by the workspace). */
  errors: InputError[];
}

export async function legacyRemovalSet(ws: Workspace): Promise<LegacyRemovalSet> {
  const legacy = blockTargets(ws.tree, (r) => isLegacyBlock(r.mode, r.type));
  const overrides = blockTargets(ws.tree, (r) => isUriOverrideBlock(r.mode, r.type));

  // URI overrides go earlier (step 0's patch) but go too: what refers to them is judged the same way, and
  // what only exposes them goes with them in step 0 (else step 0's `terraform apply` could not validate).
  const graph = await readReferenceGraph(ws, (mode, type) => isLegacyBlock(mode, type) || isUriOverrideBlock(mode, type));
  const closure = removalClosure(graph.graphs);
  const overridesOnly = removalClosure(
    graph.graphs.map((g) => ({ ...g, items: g.items.map((i) => (i.legacy && !i.key.startsWith(`${URI_OVERRIDE_TYPE}.`) ? { ...i, legacy: false } : i)) })),
  );
  const modulePathOf = new Map(graph.graphs.map((g) => [g.id, g.modulePath]));
  const exposingOf = (removed: RemovedItem[]): ExposingItem[] =>
    removed
      .filter((r): r is RemovedItem & { item: GraphItem & { kind: "output" | "local" } } => r.item.kind === "output" || r.item.kind === "local")
      .map((r) => ({
        file: r.item.file,
        line: r.item.line,
        kind: r.item.kind,
        name: r.item.key.slice(r.item.key.indexOf(".") + 1),
        modulePath: modulePathOf.get(r.module) ?? "",
        exposes: r.because,
      }))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  const sameItem = (a: ExposingItem, b: ExposingItem): boolean => a.file === b.file && a.kind === b.kind && a.name === b.name;
  const stepZero = exposingOf(overridesOnly.removed);
  const exposing = exposingOf(closure.removed).filter((e) => !stepZero.some((z) => sameItem(z, e)));
  const asTarget = (e: ExposingItem): RemovalTarget => ({ kind: e.kind, file: e.file, name: e.name });

  return {
    blocks: legacy.blocks,
    blockConfigAddresses: legacy.configAddresses,
    overrideBlocks: overrides.blocks,
    exposing,
    targets: [...legacy.blocks, ...exposing.map(asTarget)],
    overrideExposing: stepZero,
    overrideTargets: stepZero.map(asTarget),
    findings: sortFindings(closure.dangling.map(referenceFinding)),
    errors: graph.errors,
  };
}

/** How the referring item is written, for messages: `resource "t" "n"`, `output "o"`, `local.x`, `module "m"`. */
export function describeItem(item: GraphItem): string {
  const [head, ...rest] = item.key.split(".");
  switch (item.kind) {
    case "resource":
      return `resource "${head}" "${rest.join(".")}"`;
    case "data":
      return `data "${rest[0]}" "${rest.slice(1).join(".")}"`;
    case "output":
      return `output "${rest.join(".")}"`;
    case "module":
      return `module "${rest.join(".")}"`;
    case "local":
    case "other":
      return item.key;
  }
}

/** The `to` of an `import {}` block: it imports the legacy resource itself. */
function isImportOfLegacy(d: DanglingReference): boolean {
  return d.item.kind === "other" && d.item.key.startsWith("import (") && d.use.argument === "to";
}

function referenceFinding(d: DanglingReference): Finding {
  if (isImportOfLegacy(d)) return importFinding(d);
  const where = d.item.kind === "local" || d.item.kind === "output" ? describeItem(d.item) : `${describeItem(d.item)} (argument ${d.use.argument})`;
  const inModule = d.modulePath ? ` in ${d.modulePath}` : "";
  const referenced = d.modulePath ? `${d.modulePath}.${d.referenced}` : d.referenced;
  const f = finding(
    "LEGACY_REFERENCE",
    `${where}${inModule} refers to ${d.referenced}, which ${d.use.ref.kind === "resource" && d.use.ref.type === URI_OVERRIDE_TYPE ? "step 0 deletes (a URI-based override)" : "step 6 deletes with the legacy WAF blocks"}: edit ${d.use.file}:${d.use.line} so that it no longer does (drop the reference, or use the new cloudflare_ruleset instead)`,
    { file: d.use.file, line: d.use.line, zoneId: null },
    { referenced, written: d.referenced, referrer: d.item.key, argument: d.use.argument, module: d.modulePath },
  );
  // `address` is a state address by contract; the referrer is a configuration block (details.referrer).
  return f;
}

/**
 * An `import { to = cloudflare_waf_override.x }`: not a value that would dangle but an import of a legacy
 * resource, which cannot work after the migration; the block has to go before the legacy blocks do.
 */
function importFinding(d: DanglingReference): Finding {
  const inModule = d.modulePath ? ` in ${d.modulePath}` : "";
  const referenced = d.modulePath ? `${d.modulePath}.${d.referenced}` : d.referenced;
  const override = d.use.ref.kind === "resource" && d.use.ref.type === URI_OVERRIDE_TYPE;
  const deleted = override ? "step 0 deletes the URI-based override" : "step 6 deletes the legacy WAF blocks";
  return finding(
    "LEGACY_REFERENCE",
    `the import block at ${d.item.file}:${d.item.line}${inModule} imports ${d.referenced}, a legacy WAF resource: after the migration that import can no longer work (${deleted}, the previous WAF's API is retired, and provider 4 and later have no cloudflare_waf_* types): delete the import block; the new WAF is brought under Terraform by importing the zone's cloudflare_ruleset (step 3)`,
    { file: d.use.file, line: d.use.line, zoneId: null },
    { referenced, written: d.referenced, referrer: d.item.key, argument: d.use.argument, module: d.modulePath },
  );
}

/** One line for the plan: `modules/waf/outputs.tf:3: output "waf_package" (only exposes cloudflare_waf_package.package)`. */
export function describeExposing(e: ExposingItem): string {
  const what = e.kind === "output" ? `output "${e.name}"` : `local.${e.name}`;
  return `${e.file}:${e.line}: ${what}${e.modulePath ? ` of ${e.modulePath}` : ""} (only exposes ${e.exposes.join(", ")})`;
}

/** A LEGACY_REFERENCE finding as one line: `file:line: message`. */
export function referenceLine(f: Finding): string {
  return `${withLine(f.file ?? "?", f.line)}: ${f.message}`;
}
