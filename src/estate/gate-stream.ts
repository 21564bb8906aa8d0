// `gate` over a streamed scan (offline): scan's report is built one instance at a time with its big lists on
// disk (estate/scan.ts, estate/spill/), and the gate keeps of each instance only what its own checks read —
// the legacy resources' addresses and places, the root's module directories (their `terraform {}` blocks and
// where a finding about the root points), the order of its zones — not its configuration, state or
// inventory. Once the scan is done, the gate's findings are those of estate/gate-report.ts `gateFindings`,
// each zone's ruleset fitted as the report's zones are read back: the same report as `gateEstate`'s.
import { compareFindings, sortFindings } from "../core/findings.js";
import type { Finding, Report, Severity, StreamedReport } from "../core/model.js";
import { sortErrors } from "../core/report.js";
import type { ModuleDir } from "../terraform/config/load.js";
import type { ConfigTree, ModuleNode } from "../terraform/config/modules.js";
import type { GateInstance } from "./gate.js";
import { slimDir, slimTree, type GateShare } from "./gate-share.js";
import { gateFindings, type GateFindings, type ZoneFits } from "./gate-report.js";
import { isKeyedFindingList, keyedFindingList, keyedInMemory } from "./spill/finding-list.js";
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

  /** Takes one instance's share (estate/gate-share.ts), in instance order. */
  readonly add = (share: GateShare): void => {
    this.base = share.base;
    const tree = this.keepRoot(share.tree);
    this.instances.push({ root: share.root, workspace: share.workspace, dir: share.dir, ws: { resources: share.resources, tree, states: [] } });
    this.zoneOrder.push(share.zoneIds);
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

  /** The root's module nodes, one copy per root and per directory however many instances share them. */
  private keepRoot(sub: ConfigTree): ConfigTree {
    const own: ConfigTree = { roots: [], nodes: [], remoteModules: [], errors: [] };
    for (const root of sub.roots) {
      const seen = this.rootsRead.get(root.dir.dir);
      if (seen) {
        own.roots.push(seen);
        continue;
      }
      const kept = slimTree({ ...sub, roots: [root] }, (dir) => this.keepDir(dir));
      this.rootsRead.set(root.dir.dir, kept.roots[0]!);
      own.roots.push(...kept.roots);
      this.tree.roots.push(...kept.roots);
      own.nodes.push(...kept.nodes);
      this.tree.nodes.push(...kept.nodes);
    }
    return own;
  }

  private keepDir(dir: ModuleDir): ModuleDir {
    let k = this.dirs.get(dir.dir);
    if (!k) this.dirs.set(dir.dir, (k = slimDir(dir)));
    return k;
  }
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
    : (isKeyedFindingList(scanned) ? scanned : keyedFindingList(scanned.length, () => keyedInMemory(scanned))).withInMemory(extra);
  return { ...report, findings, errors: sortErrors([...report.errors, ...gate.errors]) };
}
