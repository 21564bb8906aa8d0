// The account a fresh sandbox starts with: two zones with the previous WAF's packages, groups and a rule
// as the service gives every zone (a Pro zone and an Enterprise one, so both migration paths can be tried).

import type { Account, WafGroup, WafPackage, WafRule, Zone } from "./account/account.js";

export const SAMPLE_ZONES = {
  shop: { id: "0da42c8d2132a9ddaf714f9e7c920711", name: "shop.example", plan: "pro" },
  bank: { id: "9a7806061c88ada191ed06f989cc3dac", name: "bank.example", plan: "enterprise" },
} as const;

export const OWASP_PACKAGE_ID = "a25a9a7e9c00afc1fb2e0245519d725b";
export const CLOUDFLARE_PACKAGE_ID = "1e334934fd7ae32ad705667f8c1057aa";
export const WORDPRESS_GROUP_ID = "de677e5818985db1285d0e80225f06e5";
export const DRUPAL_GROUP_ID = "4f7f9bcdfd0d4c2ba0c8e1e4a4b0d0a1";
export const SQLI_RULE_ID = "100000";

function packages(): WafPackage[] {
  return [
    { id: OWASP_PACKAGE_ID, name: "OWASP ModSecurity Core Rule Set", detection_mode: "anomaly", sensitivity: "high", action_mode: "challenge", default_sensitivity: "high", default_action_mode: "challenge" },
    { id: CLOUDFLARE_PACKAGE_ID, name: "CloudFlare", detection_mode: "traditional", sensitivity: "", action_mode: "", default_sensitivity: "", default_action_mode: "" },
  ];
}

function groups(): WafGroup[] {
  return [
    { id: WORDPRESS_GROUP_ID, package_id: CLOUDFLARE_PACKAGE_ID, name: "Cloudflare WordPress", mode: "on", default_mode: "on", rules_count: 12, modified_rules_count: 0 },
    { id: DRUPAL_GROUP_ID, package_id: CLOUDFLARE_PACKAGE_ID, name: "Cloudflare Drupal", mode: "on", default_mode: "on", rules_count: 8, modified_rules_count: 0 },
  ];
}

function rules(): WafRule[] {
  return [{ id: SQLI_RULE_ID, package_id: CLOUDFLARE_PACKAGE_ID, group_id: WORDPRESS_GROUP_ID, description: "SQLi - comment sequence", priority: "5", mode: "default", default_mode: "default", allowed_modes: ["default", "disable", "simulate", "block", "challenge"] }];
}

export function sampleAccount(): Account {
  const zone = (z: { id: string; name: string; plan: Zone["plan"] }): Zone => ({
    ...z,
    status: "active",
    type: "full",
    settings: { waf: "on" },
    waf: { packages: packages(), groups: groups(), rules: rules() },
  });
  return { zones: Object.fromEntries(Object.values(SAMPLE_ZONES).map((z) => [z.id, zone(z)])) };
}
