// A root-module ruleset resource with count or for_each that this run imports into (one copied from a
// cf-terraforming `for_each` over several zones, say) must have no instance that is neither imported now
// nor in state already: terraform would create it at the next plan/apply (a second entry point for a zone
// whose WAF another workspace or root manages, or a managed ruleset nobody asked for). Step 6's final plan
// would show it, but only after the import and the state removals: so it is refused before any change.
import { withLine } from "../core/report-paths.js";
import { rootModuleEntryPoints } from "../core/entry-point.js";
import type { ExistingRuleset } from "../core/model.js";
import type { ImportTask } from "./types.js";

/** One refusal line per such resource (empty when there is none), naming its instances that would be created. */
export function unplannedRulesetInstances(rulesets: readonly ExistingRuleset[], imports: readonly ImportTask[], liveState: readonly string[]): string[] {
  const targets = new Set(imports.map((i) => i.to));
  const inState = new Set(liveState);
  const own = rootModuleEntryPoints(rulesets).filter((r) => !r.ref.noInstances);
  // The resources an import of this run targets one instance of.
  const repeated = new Set(own.filter((r) => r.ref.address !== r.ref.configAddress && targets.has(r.ref.address)).map((r) => r.ref.configAddress));
  const lines: string[] = [];
  for (const resource of repeated) {
    const instances = own.filter((r) => r.ref.configAddress === resource);
    const created = instances.filter((r) => !targets.has(r.ref.address) && !inState.has(r.ref.address));
    if (created.length === 0) continue;
    const show = (r: ExistingRuleset) => `${r.ref.address} (${r.ref.zoneId !== null ? `zone ${r.ref.zoneId}` : "zone not known offline"})`;
    const imported = instances.filter((r) => targets.has(r.ref.address)).map(show);
    const at = instances[0]!.ref;
    lines.push(
      `${withLine(at.file ?? "?", at.line)}: ${resource} has count or for_each, and this run imports only ${imported.join(", ")}: ` +
        `${created.map(show).join(", ")} ${created.length === 1 ? "is" : "are"} neither imported by this run nor in this state, so terraform plan/apply here would create ${created.length === 1 ? "it" : "them"} ` +
        `(a second entry point for a zone whose WAF another workspace or root manages, or a managed ruleset nobody asked for). ` +
        `Write one resource per zone, without count/for_each, or give its count/for_each only the zones migrated here (for example filtered by terraform.workspace), then run apply again`,
    );
  }
  return lines;
}
