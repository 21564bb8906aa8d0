data "cloudflare_waf_packages" "owasp" {
  zone_id = var.zone_id

  filter {
    name = "OWASP ModSecurity Core Rule Set"
  }
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = data.cloudflare_waf_packages.owasp.packages[0].id
  sensitivity = var.sensitivity
  action_mode = var.action_mode
}

resource "cloudflare_waf_group" "off" {
  for_each = var.disabled_groups

  zone_id  = var.zone_id
  group_id = each.key
  mode     = each.value
}

resource "cloudflare_waf_rule" "managed" {
  for_each = var.rule_modes

  zone_id = var.zone_id
  rule_id = each.key
  mode    = each.value
}
