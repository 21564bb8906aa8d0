# A reusable WAF module in the shape public ones use: a package guarded by a feature flag and groups
# created from a flattened list of objects, keyed "<package>-<group>".
locals {
  enabled = var.enabled && length(var.anomaly_packages) > 0

  group_rules = flatten([
    for pkg in var.anomaly_packages : [
      for group_id, mode in pkg.groups : {
        key      = "${pkg.name}-${group_id}"
        group_id = group_id
        mode     = mode
      }
    ]
  ])
}

data "cloudflare_waf_packages" "owasp" {
  count   = local.enabled ? 1 : 0
  zone_id = var.zone_id

  filter {
    name = "OWASP ModSecurity Core Rule Set"
  }
}

resource "cloudflare_waf_package" "owasp" {
  count = local.enabled ? 1 : 0

  zone_id     = var.zone_id
  package_id  = data.cloudflare_waf_packages.owasp[0].packages[0].id
  sensitivity = var.sensitivity
  action_mode = var.action_mode
}

resource "cloudflare_waf_group" "this" {
  for_each = { for g in local.group_rules : g.key => g }

  zone_id  = var.zone_id
  group_id = each.value.group_id
  mode     = each.value.mode
}
