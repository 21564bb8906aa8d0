import type { ZoneReport } from "../../src/core/model.js";

// testdata/estate: the states its roots and workspaces keep, as the local backend lays them out (relative
// to testdata/estate), shared by the estate tests.
export const ESTATE_STATES = [
  "live/prod/terraform.tfstate",
  "live/staging/terraform.tfstate.d/eu/terraform.tfstate",
  "live/staging/terraform.tfstate.d/us/terraform.tfstate",
  "live/edge/terraform.tfstate",
  "live/migrated/terraform.tfstate",
] as const;

/** A zone entry of an estate report in `root` (default workspace), ready to migrate unless `extra` says otherwise. */
export function estateZone(zoneId: string, root: string, extra: Partial<ZoneReport> = {}): ZoneReport {
  return {
    zoneId,
    zoneName: null,
    plan: "unknown",
    compatible: true,
    migrationMode: "pending",
    phase1: { eligible: false, reasons: [] },
    ruleset: { name: "default", rules: [] },
    imports: [{ to: "cloudflare_ruleset.x", id: `zone/${zoneId}/0123456789abcdef0123456789abcdef` }],
    stateRemovals: [],
    root,
    workspace: "default",
    ...extra,
  };
}
