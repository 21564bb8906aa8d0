// A plan of some roots only: another root of the repository (not in the run) may already declare the
// http_request_firewall_managed entry point ruleset of a zone whose ruleset this run plans (a root migrated
// by hand). Importing the planned one would make two roots manage one entry point, each apply overwriting
// the other: the skip rules belong in the existing ruleset. Only literal zone ids on both sides are matched.
// Pure: estate/other-root-rules.ts reads the other roots.
import { finding } from "./findings.js";
import { isLiteralZoneId } from "./import-id.js";
import { MANAGED_PHASE } from "./mappings.js";
import type { Finding } from "./model.js";
import type { OtherRootRules } from "./other-root-bypasses.js";

/** `file:line: address in root R (zone Z)`: one line of migrate.sh's and apply's refusal. */
export function otherRootEntryPointLine(f: Finding): string {
  const d = f.details as { otherRoot: string; address: string };
  return `${f.file ?? d.otherRoot}${f.line !== null && f.line !== undefined ? `:${f.line}` : ""}: ${d.address} in root ${d.otherRoot}${f.zoneId ? ` (zone ${f.zoneId})` : ""} (MANAGED_RULESET_EXISTS)`;
}

/** What a run of one root (apply, migrate.sh) says before it refuses to import a second entry point ruleset. */
export const OTHER_ROOT_ENTRY_POINT_REFUSAL =
  "another root already manages the http_request_firewall_managed entry point of a zone whose ruleset step 3 would import here, as a second resource for it (two roots managing one ruleset, each apply overwriting the other)";

/** What to do instead. */
export const OTHER_ROOT_ENTRY_POINT_REMEDY =
  "merge the skip rules of ruleset.tf into that ruleset in its root and import nothing here; nothing was changed";

/** One MANAGED_RULESET_EXISTS per other root's entry point ruleset of a zone in `zoneIds`, at that ruleset. */
export function otherRootEntryPointFindings(zoneIds: readonly string[], others: readonly OtherRootRules[]): Finding[] {
  const run = new Set(zoneIds.filter(isLiteralZoneId));
  const out: Finding[] = [];
  for (const other of others) {
    for (const ref of other.entryPoints ?? []) {
      if (ref.zoneId === null || !run.has(ref.zoneId) || ref.noInstances === true) continue;
      out.push(
        finding(
          "MANAGED_RULESET_EXISTS",
          `${ref.address} in root ${other.root} (not in this run) already manages this zone's ${MANAGED_PHASE} entry point: merge the skip rules planned here into it there instead of adding and importing a second resource here (two roots would manage one ruleset, each apply overwriting the other)`,
          { ref, zoneId: ref.zoneId },
          { otherRoot: other.root, address: ref.address },
        ),
      );
    }
  }
  return out;
}
