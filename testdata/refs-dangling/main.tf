provider "cloudflare" {}

locals {
  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"

  # Mixed: the legacy package id and a kept value.
  waf_summary = "${cloudflare_waf_package.owasp.id}/${local.zone_id}"
  package_id  = cloudflare_waf_package.owasp.id
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = "c504870194831cd12c3fc0284f294abb"
  sensitivity = "low"
  action_mode = "block"
}

resource "cloudflare_waf_rule" "sqli" {
  zone_id    = local.zone_id
  package_id = cloudflare_waf_package.owasp.package_id
  rule_id    = "100000356"
  mode       = "disable"
}

resource "cloudflare_filter" "edge" {
  zone_id     = local.zone_id
  description = "edge filter"
  expression  = "(http.request.uri.path eq \"/health\")"

  depends_on = [
    cloudflare_waf_rule.sqli,
  ]
}

module "edge" {
  source = "./modules/edge"

  zone_id    = local.zone_id
  package_id = local.package_id
}

output "package" {
  value = cloudflare_waf_package.owasp.id
}
