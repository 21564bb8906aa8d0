terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

locals {
  settings = yamldecode(file("${path.module}/zones.yml"))
  # Only the zones that have bypass rules, keyed like the settings.
  bypasses = { for name, s in local.settings : name => s.bypass if length(s.bypass) > 0 }
}

resource "cloudflare_zone" "z" {
  for_each = toset([for s in local.settings : s.zone])
  zone     = each.value
  plan     = "enterprise"
}

resource "cloudflare_waf_package" "owasp" {
  for_each    = local.settings
  zone_id     = cloudflare_zone.z[each.value.zone].id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = each.value.sensitivity
  action_mode = each.value.action_mode
}

resource "cloudflare_filter" "bypass" {
  for_each   = local.bypasses
  zone_id    = cloudflare_zone.z[each.value[0].zone].id
  expression = each.value[0].expression
}

resource "cloudflare_firewall_rule" "bypass" {
  for_each    = local.bypasses
  zone_id     = cloudflare_zone.z[each.value[0].zone].id
  description = "health checks skip the WAF"
  filter_id   = cloudflare_filter.bypass[each.key].id
  action      = "bypass"
  products    = each.value[0].products
}
