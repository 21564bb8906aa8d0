// Terraform v4 state as the tests write it (shaped as reference/domain-facts.md section 6 says): one shape, so
// a test says only what differs — the zone, the serial and lineage, the package's sensitivity.
export const CLOUDFLARE_PROVIDER = 'provider["registry.terraform.io/cloudflare/cloudflare"]';
export const OWASP_PACKAGE_ID = "a25a9a7e9c00afc1fb2e0245519d725b";

export interface WafPackageStateOptions {
  serial?: number;
  /** Default: `lineage-<zone id>`. */
  lineage?: string;
  terraformVersion?: string;
  sensitivity?: string;
}

/** A state holding `module.waf.cloudflare_waf_package.owasp` for one zone (action mode simulate). */
export function wafPackageState(zoneId: string, opts: WafPackageStateOptions = {}): Record<string, unknown> {
  return {
    version: 4,
    terraform_version: opts.terraformVersion ?? "1.11.0",
    serial: opts.serial ?? 1,
    lineage: opts.lineage ?? `lineage-${zoneId}`,
    outputs: {},
    resources: [
      {
        module: "module.waf",
        mode: "managed",
        type: "cloudflare_waf_package",
        name: "owasp",
        provider: CLOUDFLARE_PROVIDER,
        instances: [{ schema_version: 0, attributes: { id: OWASP_PACKAGE_ID, zone_id: zoneId, package_id: OWASP_PACKAGE_ID, sensitivity: opts.sensitivity ?? "medium", action_mode: "simulate" } }],
      },
    ],
    check_results: null,
  };
}
