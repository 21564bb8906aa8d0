// The demo's legacy estate, in the shapes real repositories use: the zone ids in a variable map, the
// previous WAF's package and group in a local module called with for_each (one instance per zone), a
// firewall rule that bypasses the WAF for uptime monitoring, and a Page Rule that turns the WAF off.

import { SAMPLE_ZONES, CLOUDFLARE_PACKAGE_ID, OWASP_PACKAGE_ID, WORDPRESS_GROUP_ID } from "../sample-account.js";

export const PROVIDER_BEFORE = "3.35.0";
export const PROVIDER_AFTER = "4.52.8";

export function versionsTf(version: string): string {
  return `terraform {
  # import {} blocks need Terraform 1.5: the plan writes imports.tf only when this says so.
  required_version = ">= 1.5"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "${version}"
    }
  }
}

provider "cloudflare" {}
`;
}

export function estateFiles(): Record<string, string> {
  return {
    "versions.tf": versionsTf(PROVIDER_BEFORE),
    "main.tf": `variable "zones" {
  type = map(string)
  default = {
    shop = "${SAMPLE_ZONES.shop.id}" # ${SAMPLE_ZONES.shop.name}, Pro
    bank = "${SAMPLE_ZONES.bank.id}" # ${SAMPLE_ZONES.bank.name}, Enterprise
  }
}

module "waf" {
  source   = "./modules/zone-waf"
  for_each = var.zones
  zone_id  = each.value
}

resource "cloudflare_filter" "monitoring" {
  zone_id     = var.zones["shop"]
  description = "Uptime monitoring"
  expression  = "(ip.src in {192.0.2.0/24} and http.request.uri.path eq \\"/health\\")"
}

# Lets the monitoring probes through the managed rules.
resource "cloudflare_firewall_rule" "monitoring_bypass" {
  zone_id     = var.zones["shop"]
  filter_id   = cloudflare_filter.monitoring.id
  action      = "bypass"
  products    = ["waf"]
  priority    = 1
  description = "Let uptime monitoring through the WAF"
}

resource "cloudflare_page_rule" "admin_waf_off" {
  zone_id  = var.zones["shop"]
  target   = "${SAMPLE_ZONES.shop.name}/admin/*"
  priority = 1
  actions {
    waf = "off"
  }
}
`,
    "modules/zone-waf/versions.tf": `terraform {
  required_providers {
    cloudflare = {
      source = "cloudflare/cloudflare"
    }
  }
}
`,
    "modules/zone-waf/main.tf": `variable "zone_id" {
  type = string
}

# OWASP core rule set: low sensitivity, log only.
resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "${OWASP_PACKAGE_ID}"
  sensitivity = "low"
  action_mode = "simulate"
}

resource "cloudflare_waf_group" "wordpress" {
  zone_id    = var.zone_id
  group_id   = "${WORDPRESS_GROUP_ID}"
  package_id = "${CLOUDFLARE_PACKAGE_ID}"
  mode       = "off"
}
`,
  };
}
