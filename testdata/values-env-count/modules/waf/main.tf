variable "environment" {
  type = string
}

variable "zone_id" {
  type = string
}

locals {
  staging_only = {
    staging    = 1
    production = 0
    dev        = 0
  }
}

resource "cloudflare_waf_package" "owasp" {
  count       = local.staging_only[var.environment]
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "simulate"
}

resource "cloudflare_waf_rule" "sqli" {
  count   = var.environment == "production" ? 1 : 0
  zone_id = var.zone_id
  rule_id = "100000356"
  mode    = "block"
}

resource "cloudflare_waf_override" "admin" {
  count   = local.staging_only[var.environment]
  zone_id = var.zone_id
  urls    = ["example.com/admin/*"]
  rules = {
    "100015" : "disable"
  }
}
