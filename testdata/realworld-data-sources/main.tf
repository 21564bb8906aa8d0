terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

locals {
  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"
  domains = ["shop", "api"]
  groups  = ["SQL Injection Attack", "XSS Attack"]

  # setproduct of groups x domains, flattened into a map keyed "<domain>-<group>".
  group_modes = {
    for pair in setproduct(local.domains, local.groups) : "${pair[0]}-${pair[1]}" => {
      group = pair[1]
      mode  = pair[0] == "api" ? "off" : "on"
    }
  }
}

# Legacy data sources looked up by name and indexed with [0].
data "cloudflare_waf_packages" "owasp" {
  zone_id = local.zone_id

  filter {
    name = "OWASP ModSecurity Core Rule Set"
  }
}

data "cloudflare_waf_groups" "by_name" {
  for_each = toset(local.groups)

  zone_id    = local.zone_id
  package_id = data.cloudflare_waf_packages.owasp.packages[0].id

  filter {
    name = each.key
  }
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = data.cloudflare_waf_packages.owasp.packages[0].id
  sensitivity = "high"
  action_mode = "block"
}

resource "cloudflare_waf_group" "by_domain" {
  for_each = local.group_modes

  zone_id    = local.zone_id
  package_id = data.cloudflare_waf_packages.owasp.packages[0].id
  group_id   = data.cloudflare_waf_groups.by_name[each.value.group].groups[0].id
  mode       = each.value.mode
}
