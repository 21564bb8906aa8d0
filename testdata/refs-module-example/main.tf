# A reusable WAF module in the shape public modules use: feature flags, a package looked up by name,
# groups driven by a map, and locals over the legacy data source.

data "cloudflare_waf_packages" "anomaly" {
  zone_id = var.zone_id

  filter {
    name = "OWASP ModSecurity Core Rule Set"
  }
}

locals {
  enabled = var.enabled && length(var.zone_id) > 0

  # Package ids of every anomaly package of the zone.
  anomaly_package_ids = [for p in data.cloudflare_waf_packages.anomaly.packages : p.id]
  group_modes         = { for k, g in var.groups : k => g.mode }
}

resource "cloudflare_waf_package" "package" {
  count = local.enabled ? 1 : 0

  zone_id     = var.zone_id
  package_id  = local.anomaly_package_ids[0]
  sensitivity = var.sensitivity
  action_mode = var.action_mode
}

resource "cloudflare_waf_group" "group" {
  for_each = local.group_modes

  zone_id    = var.zone_id
  package_id = cloudflare_waf_package.package[0].package_id
  group_id   = each.key
  mode       = each.value
}
