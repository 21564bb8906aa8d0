terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = ">= 3.20, < 4.0"
    }
  }
}

variable "zone_id" {
  type    = string
  default = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7"
}

variable "strict_mode" {
  type    = bool
  default = false
}

# Shared WAF exceptions maintained by the platform team.
module "waf_exceptions" {
  source  = "app.terraform.io/example/waf-exceptions/cloudflare"
  version = "1.4.2"
  zone_id = var.zone_id
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "off"
  action_mode = "challenge"
}

# Only in strict mode: never applied in this workspace, so state has no instance.
resource "cloudflare_waf_group" "strict" {
  count    = var.strict_mode ? 1 : 0
  zone_id  = var.zone_id
  group_id = "cfda825dfda411ea218cb70e6c88e82e"
  mode     = "on"
}

resource "cloudflare_waf_rule" "rules" {
  for_each = {
    "100000356" = "simulate"
    "100015"    = "disable" # false positives on the search form
  }

  zone_id = var.zone_id
  rule_id = each.key
  mode    = each.value
}
