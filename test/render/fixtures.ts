// Reports for the renderer tests: small ones built by hand (every shape a renderer must handle), and the
// real multi-zone example run through the same calls as `cf-waf-migrate scan`.
import path from "node:path";
import { analyze } from "../../src/core/analyze.js";
import type { Finding, Report, ZoneReport } from "../../src/core/model.js";
import { buildReport } from "../../src/core/report.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { ROOT, TESTDATA } from "../support/cli.js";

export const SHOP = "0da42c8d2132a9ddaf714f9e7c920711";
export const BLOG = "9a7806061c88ada191ed06f989cc3dac";
export const CERT_ZONE = "5c1d1b2f6a7e4b0c9d8e7f6a5b4c3d2e";

function zone(zoneId: string, zoneName: string | null, over: Partial<ZoneReport> = {}): ZoneReport {
  return {
    zoneId,
    zoneName,
    plan: "business",
    compatible: true,
    migrationMode: "pending",
    phase1: { eligible: true, reasons: [] },
    ruleset: {
      name: "default",
      rules: [
        {
          action: "skip",
          expression: '(http.request.uri.path eq "/a|b")',
          description: "Bypass WAF, migrated from cloudflare_firewall_rule.ops",
          enabled: true,
          action_parameters: { ruleset: "current" },
          logging: { enabled: true },
        },
        {
          action: "execute",
          expression: "true",
          description: "Cloudflare OWASP Core Ruleset",
          enabled: false,
          action_parameters: {
            id: "4814384a9e5d4991b9815dcfc25d2f1f",
            overrides: {
              categories: [{ category: "paranoia-level-2", enabled: false }],
              rules: [{ id: "6179ae15870a4bb7b2d480d4843b323c", action: "log", score_threshold: 25 }],
            },
          },
        },
      ],
    },
    imports: [{ to: `cloudflare_ruleset.waf_managed_${zoneName?.replace(/\W/g, "_") ?? "zone"}`, id: `zone/${zoneId}/<RULESET_ID>` }],
    stateRemovals: ['module.waf["shop"].cloudflare_waf_package.owasp', "cloudflare_waf_rule.r[0]"],
    ...over,
  };
}

function f(code: string, severity: Finding["severity"], message: string, at: Partial<Finding> = {}): Finding {
  return { code, severity, message, zoneId: null, address: null, file: null, line: null, ...at };
}

/**
 * Two zones (one not compatible), findings of every severity, a finding without a file, one of no zone,
 * one naming a zone without a zone report, one code this build does not know, and input errors of every
 * kind (config file with line and column, state file named relative to the working directory, stdin).
 */
export function handReport(root = "infra/prod"): Report {
  return {
    schemaVersion: 1,
    tool: { name: "cf-waf-migrate", version: "9.9.9" },
    root,
    resources: [
      { address: "cloudflare_waf_override.checkout", type: "cloudflare_waf_override", file: "main.tf", line: 5, zoneId: SHOP, inConfig: true, inState: true },
      { address: "cloudflare_waf_group.retired", type: "cloudflare_waf_group", file: null, line: null, zoneId: BLOG, inConfig: false, inState: true },
    ],
    zones: [
      zone(SHOP, "shop.example.com", { compatible: false, phase1: { eligible: false, reasons: ["1 URI-based WAF override(s)"] } }),
      zone(BLOG, null, { plan: "enterprise", migrationMode: "validation" }),
    ],
    findings: [
      f("URI_WAF_OVERRIDE", "error", "cloudflare_waf_override.checkout is a URI-based WAF override (shop.example.com/checkout/*): delete it", {
        zoneId: SHOP,
        address: "cloudflare_waf_override.checkout",
        file: "main.tf",
        line: 5,
      }),
      f("FIREWALL_EXPRESSION_TOO_LONG", "error", "expression is 5000 bytes | over the 4096 limit\nsecond line", {
        zoneId: SHOP,
        address: "cloudflare_firewall_rule.huge",
        file: "modules/fw/main.tf",
        line: 12,
      }),
      f("LEGACY_WAF_RESOURCE", "warning", "cloudflare_waf_override.checkout is a previous-WAF resource", {
        zoneId: SHOP,
        address: "cloudflare_waf_override.checkout",
        file: "main.tf",
        line: 5,
      }),
      f("RULESET_ID_UNKNOWN", "warning", "pass --ruleset-id ZONE=<id>; run `cf-waf-migrate api entrypoint --zone x|y`", { zoneId: SHOP, file: "main.tf", line: 1 }),
      f("VALIDATION_MODE_UNAVAILABLE", "info", "the zone is on the business plan", { zoneId: SHOP, file: "main.tf", line: 1 }),
      // State only, no file: no SARIF location.
      f("STATE_CONFIG_DRIFT", "warning", "cloudflare_waf_group.retired is in state but not in config", { zoneId: BLOG, address: "cloudflare_waf_group.retired" }),
      f("LEGACY_WAF_RESOURCE", "warning", "cloudflare_waf_group.retired is a previous-WAF resource", { zoneId: BLOG, address: "cloudflare_waf_group.retired" }),
      // No zone: the provider suite.
      f("PROVIDER_UPGRADE_BLOCKED", "error", 'required_providers allows "~> 4.0" & legacy resources remain <now>', { file: "versions.tf", line: 3 }),
      f("REMOTE_MODULE_NOT_FOLLOWED", "info", "module.remote comes from a registry", { file: "main.tf", line: 40 }),
      // A zone without a zone report (certificates), and a code from a newer core.
      f("CERT_ADVANCED_LETS_ENCRYPT", "warning", "cloudflare_certificate_pack.adv uses lets_encrypt", { zoneId: CERT_ZONE, address: "cloudflare_certificate_pack.adv", file: "certs.tf", line: 2 }),
      f("SOME_FUTURE_CODE", "warning", "control \u0001 chars \u001b[31m and a lone \ud800 surrogate", { zoneId: CERT_ZONE, file: "certs.tf", line: 9 }),
    ],
    plan: {
      steps: [
        { number: 1, title: "Check the zones", commands: [], notes: ["- nothing to run"] },
        { number: 2, title: "Remove the legacy resources from state", commands: ["terraform state rm -dry-run 'module.waf[\"shop\"].cloudflare_waf_package.owasp'", "terraform state rm 'module.waf[\"shop\"].cloudflare_waf_package.owasp'"] },
      ],
    },
    errors: [
      { file: "broken.tf", line: 7, column: 3, message: "Invalid expression" },
      { file: `${root}/terraform.tfstate`, line: null, column: null, message: "state is truncated (unexpected end of JSON)" },
      { file: "<stdin>", line: null, column: null, message: "standard input can be read only once" },
    ],
  };
}

/** A report with nothing in it (a tree without previous-WAF resources). */
export function emptyReport(): Report {
  return { schemaVersion: 1, tool: { name: "cf-waf-migrate", version: "9.9.9" }, root: ".", resources: [], zones: [], findings: [], errors: [] };
}

export const MZ = path.join(TESTDATA, "multi-zone");

/** The multi-zone example as `cf-waf-migrate scan testdata/multi-zone --state …` from the repository root. */
export async function multiZoneReport(): Promise<Report> {
  const ws = await loadWorkspace({
    paths: [MZ],
    statePaths: [path.join(MZ, "terraform.tfstate")],
    cwd: ROOT,
    readStdin: async () => Buffer.alloc(0),
  });
  const analysis = analyze(ws.domain, { stateKnown: ws.stateKnown, unfollowedModulePrefixes: ws.remoteModules.map((m) => m.path) });
  const root = path.relative(ROOT, ws.base).split(path.sep).join("/") || ".";
  return buildReport({ version: "0.0.0-test", root, resources: ws.resources, analysis, extraFindings: ws.findings, errors: ws.errors });
}
