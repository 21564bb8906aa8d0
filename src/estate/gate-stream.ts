// `gate` over a streamed scan (offline): scan's report is built one instance at a time with its big lists on
// disk (estate/scan.ts, estate/spill/), and the gate keeps of each instance only what its own checks read —
// the legacy resources' addresses and places, the root's module directories (their `terraform {}` blocks and
// where a finding about the root points), the order of its zones — not its configuration, state or
// inventory. Once the scan is done, the gate's findings are those of estate/gate-report.ts `gateFindings`,
// each zone's ruleset fitted as the report's zones are read back: the same report as `gateEstate`'s.
import { compareFindings, sortFindings } from "../core/findings.js";
import { LEGACY_DATA_SOURCES, LEGACY_WAF_RESOURCE_TYPES } from "../core/legacy-types.js";
import type { Finding, InventoryResource, Report, Severity, StreamedReport } from "../core/model.js";
import { sortErrors } from "../core/report.js";
import type { ConfigResource, ModuleDir } from "../terraform/config/load.js";
import type { ConfigTree, ModuleNode } from "../terraform/config/modules.js";
import { firstInFileOrder } from "../terraform/versions/providers.js";
import type { AnalysedInstance } from "./analyze.js";
import type { GateInstance } from "./gate.js";
import { gateFindings, type GateFindings, type ZoneFits } from "./gate-report.js";
import { rootNodeOf } from "./instances.js";
import type { EstateInstance } from "./load.js";
import { isKeyedFindingList, keyedFindingList, keyedInMemory, mergeKeyed } from "./spill/finding-list.js";
import { mergeSorted } from "./spill/kmerge.js";

export interface GatedReport<R extends Report | StreamedReport> {
  /** The scan's report with the gate's findings and input errors. */
  report: R;
  severities: ReadonlySet<Severity>;
  summaries: string[];
}

export class GateStream {
  private readonly instances: GateInstance[] = [];
  /** Each instance's zone ids, in its analysis's order (what its version findings are deduplicated in). */
  private readonly zoneOrder: string[][] = [];
  private readonly tree: ConfigTree = { roots: [], nodes: [], remoteModules: [], errors: [] };
  private readonly rootsRead = new Map<string, ModuleNode>();
  /** A module directory several roots call is kept once (by its path: the map must not hold the parsed directory). */
  private readonly dirs = new Map<string, ModuleDir>();
  private base = "";

  constructor(private readonly target: string | undefined) {}

  /** For `eachInstance` (estate/scan.ts): keeps what the gate reads of one instance. */
  readonly each = (instance: EstateInstance, analysed: AnalysedInstance): void => {
    this.base = instance.ws.base;
    const tree = this.keepRoot(instance.ws.tree);
    const resources = instance.ws.resources.filter((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type) || LEGACY_DATA_SOURCES.has(r.type)).map(slimResource);
    this.instances.push({ root: instance.root, workspace: instance.workspace, dir: instance.dir, ws: { resources, tree, states: [] } });
    this.zoneOrder.push(analysed.instance.analysis.zones.map((z) => z.zone.zoneId));
  };

  /** The scan's report with the gate's findings added (walks the report's zones once). */
  async finish<R extends Report | StreamedReport>(report: R, severities: ReadonlySet<Severity>): Promise<GatedReport<R>> {
    // An instance built where this hook did not run (a scan that builds some elsewhere) would go unchecked.
    const listed = report.roots?.length ?? 0;
    if (listed !== this.instances.length) throw new Error(`gate: the scan's hook saw ${this.instances.length} of ${listed} instances`);
    const gate = await gateFindings(this.instances, this.tree, this.base, this.target, (fit) => this.fitZones(report, fit));
    return { report: withGate(report, gate), severities: new Set([...severities, ...gate.findings.map((f) => f.severity)]), summaries: gate.summaries };
  }

  /** Each instance's zones as the report lists them (after the split-zone join), fitted by that instance's fitter. */
  private fitZones(report: Pick<StreamedReport, "zones">, fit: Parameters<ZoneFits>[0]): ReturnType<ZoneFits> {
    const index = new Map(this.instances.map((inst, i) => [key(inst.root, inst.workspace), i]));
    const byZone = this.instances.map(() => new Map<string, Finding[]>());
    const imports = this.instances.map(() => 0);
    for (const zone of report.zones) {
      const i = index.get(key(zone.root ?? "", zone.workspace ?? ""));
      if (i === undefined) continue;
      byZone[i]!.set(zone.zoneId, fit[i]!(zone.ruleset));
      // A split zone's ruleset is imported in the instance that holds it, not here.
      if (!zone.rulesetIn) imports[i]!++;
    }
    return this.zoneOrder.map((ids, i) => ({ fits: ids.map((id) => byZone[i]!.get(id) ?? []), imports: imports[i]! }));
  }

  /** The root's module nodes with only what the provider checks read of their directories (once per root). */
  private keepRoot(sub: ConfigTree): ConfigTree {
    const own: ConfigTree = { roots: [], nodes: [], remoteModules: [], errors: [] };
    for (const root of sub.roots) {
      const seen = this.rootsRead.get(root.dir.dir);
      if (seen) {
        own.roots.push(seen);
        continue;
      }
      const kept = new Map<ModuleNode, ModuleNode>();
      const keep = (n: ModuleNode): ModuleNode => {
        let k = kept.get(n);
        if (!k) kept.set(n, (k = { path: n.path, dir: this.keepDir(n.dir), call: null, parent: n.parent ? keep(n.parent) : null }));
        return k;
      };
      const k = keep(root);
      this.rootsRead.set(root.dir.dir, k);
      own.roots.push(k);
      this.tree.roots.push(k);
      for (const n of sub.nodes) {
        if (rootNodeOf(n) !== root) continue;
        const kn = keep(n);
        own.nodes.push(kn);
        this.tree.nodes.push(kn);
      }
    }
    return own;
  }

  /**
   * A directory's `terraform {}` blocks and, standing for its resources and module calls, the one a finding
   * about its root points at when it has no `terraform {}` block: its first legacy block in file order, else
   * its first resource or module call (terraform/versions/providers.ts).
   */
  private keepDir(dir: ModuleDir): ModuleDir {
    let k = this.dirs.get(dir.dir);
    if (!k) {
      const legacy = firstInFileOrder(dir.resources.filter((r) => LEGACY_WAF_RESOURCE_TYPES.has(r.type)));
      const first = legacy ?? firstInFileOrder([...dir.resources, ...dir.moduleCalls]);
      const anchor: ConfigResource[] = first ? [{ mode: "managed", type: legacy?.type ?? "", name: "", file: first.file, line: first.line, body: {} }] : [];
      this.dirs.set(dir.dir, (k = { dir: dir.dir, terraformBlocks: dir.terraformBlocks, resources: anchor, moduleCalls: [], variables: {}, locals: {}, errors: [] }));
    }
    return k;
  }
}

/** What the provider checks read of a legacy resource (provider-gate.ts `legacyAddressesOf`, root-versions.ts `rootInput`). */
function slimResource(r: InventoryResource): InventoryResource {
  const { address, type, file, line, zoneId, inConfig, noInstances } = r;
  return { address, type, file, line, zoneId, inConfig, ...(noInstances ? { noInstances } : {}) } as InventoryResource;
}

function key(root: string, workspace: string): string {
  return `${root}\u0000${workspace}`;
}

/**
 * The report with the gate's findings merged into its sorted findings (after scan's on a tie, as
 * buildEstateReport sorts them) and its input errors (sorted, as every report's are).
 */
function withGate<R extends Report | StreamedReport>(report: R, gate: GateFindings): R {
  const extra = sortFindings(gate.findings);
  const scanned = report.findings;
  // A spilled scan's findings are merged by their keys: the JSON report still copies their texts.
  const findings = Array.isArray(scanned)
    ? [...mergeSorted<Finding>([scanned, extra], compareFindings)]
    : keyedFindingList(scanned.length + extra.length, () => mergeKeyed([isKeyedFindingList(scanned) ? scanned.keyed() : keyedInMemory(scanned), keyedInMemory(extra)]));
  return { ...report, findings, errors: sortErrors([...report.errors, ...gate.errors]) };
}
