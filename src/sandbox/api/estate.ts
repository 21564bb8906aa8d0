// A simulated estate for the online commands: N zones on one account, with the mix a real estate has
// (incompatible zones, zones already migrated, Enterprise zones, zones whose API answers 500 or 429 before
// working), and the Terraform a team would keep for it (one root, the legacy WAF resources per zone), so
// scan/plan --online and the migration waves run end to end against the simulated API.

import { MANAGED_PHASE } from "../../core/mappings.js";
import type { Account, Zone } from "../account/account.js";
import { CLOUDFLARE_PACKAGE_ID, OWASP_PACKAGE_ID, WORDPRESS_GROUP_ID } from "../sample-account.js";
import { equivalentConfig } from "./migration.js";
import type { ZoneFaults } from "./faults.js";

export type EstateKind = "plain" | "incompatible" | "migrated" | "enterprise" | "flaky" | "rate-limited";

export interface EstateZone {
  id: string;
  name: string;
  plan: Zone["plan"];
  kind: EstateKind;
}

export interface Estate {
  account: Account;
  zones: EstateZone[];
  faults: Record<string, ZoneFaults>;
}

export interface EstateOptions {
  zones: number;
  /** Retry-After of the rate-limited zones, seconds (default 2). */
  retryAfterSeconds?: number;
}

/** Kind of the i-th zone: one in ten of each special kind, the rest plain Pro/Business zones. */
export function estateKind(i: number): EstateKind {
  switch (i % 10) {
    case 1:
      return "incompatible";
    case 3:
      return "migrated";
    case 5:
      return "enterprise";
    case 7:
      return "flaky";
    case 9:
      return "rate-limited";
    default:
      return "plain";
  }
}

/** Deterministic 32-hex zone ids, so fixtures and accounts agree without a shared file. */
export function estateZoneId(i: number): string {
  return `e57a7e${"0".repeat(20)}${i.toString(16).padStart(6, "0")}`;
}

export function buildEstate(options: EstateOptions): Estate {
  const zones: EstateZone[] = [];
  const account: Account = { zones: {} };
  const faults: Record<string, ZoneFaults> = {};
  for (let i = 0; i < options.zones; i++) {
    const kind = estateKind(i);
    const id = estateZoneId(i);
    const plan: Zone["plan"] = kind === "enterprise" ? "enterprise" : i % 2 === 0 ? "pro" : "business";
    const name = `z${i}.estate.example`;
    zones.push({ id, name, plan, kind });
    const zone: Zone = {
      id,
      name,
      plan,
      status: "active",
      type: "full",
      settings: { waf: "on" },
      waf: {
        packages: [
          { id: OWASP_PACKAGE_ID, name: "OWASP ModSecurity Core Rule Set", detection_mode: "anomaly", sensitivity: "medium", action_mode: "simulate", default_sensitivity: "high", default_action_mode: "challenge" },
          { id: CLOUDFLARE_PACKAGE_ID, name: "CloudFlare", detection_mode: "traditional", sensitivity: "", action_mode: "", default_sensitivity: "", default_action_mode: "" },
        ],
        groups: [{ id: WORDPRESS_GROUP_ID, package_id: CLOUDFLARE_PACKAGE_ID, name: "Cloudflare WordPress", mode: "off", default_mode: "on" }],
        rules: [],
      },
    };
    // The URI-based override exists only at the service: Terraform does not manage it.
    if (kind === "incompatible") zone.waf!.overrides = { [`0ver${i.toString(16).padStart(28, "0")}`]: { urls: [`${name}/admin/*`], rules: {} } };
    if (kind === "migrated") {
      const config = equivalentConfig(zone);
      const rulesetId = `5e7${i.toString(16).padStart(29, "0")}`;
      zone.rulesets = {
        [rulesetId]: {
          name: config.name,
          description: "",
          kind: "zone",
          phase: MANAGED_PHASE,
          version: "1",
          rules: config.rules.map((r, k) => ({ ...r, id: `${rulesetId.slice(0, 28)}${k.toString(16).padStart(4, "0")}`, ref: `${rulesetId.slice(0, 28)}${k.toString(16).padStart(4, "0")}`, version: "1" })),
        },
      };
      zone.migration_state = "finished";
      zone.migrated = true;
    }
    if (kind === "flaky") faults[id] = { serverErrors: 1 };
    if (kind === "rate-limited") faults[id] = { rateLimited: { times: 1, retryAfterSeconds: options.retryAfterSeconds ?? 2 } };
    account.zones[id] = zone;
  }
  return { account, zones, faults };
}

/**
 * The estate's Terraform: one root on provider 3.x with each zone's OWASP package and its WordPress group
 * switched off, by literal zone id (the shape of a generated estate).
 */
export function estateTerraform(estate: Estate): string {
  const blocks = [
    `terraform {
  required_version = ">= 1.5"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

provider "cloudflare" {}
`,
  ];
  for (const z of estate.zones) {
    const key = z.name.split(".")[0]!;
    blocks.push(`resource "cloudflare_waf_package" "owasp_${key}" {
  zone_id     = "${z.id}"
  package_id  = "${OWASP_PACKAGE_ID}"
  sensitivity = "medium"
  action_mode = "simulate"
}

resource "cloudflare_waf_group" "wordpress_${key}" {
  zone_id  = "${z.id}"
  group_id = "${WORDPRESS_GROUP_ID}"
  mode     = "off"
}
`);
  }
  return blocks.join("\n");
}
