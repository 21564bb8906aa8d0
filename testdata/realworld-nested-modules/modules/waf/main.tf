variable "zone_id" {
  type = string
}

variable "rules" {
  type = map(string)
}

resource "cloudflare_waf_rule" "this" {
  for_each = var.rules

  zone_id = var.zone_id
  rule_id = each.key
  mode    = each.value
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "challenge"
}
