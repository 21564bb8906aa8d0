terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

variable "account_id" {
  type = string
}

resource "cloudflare_zone" "docs" {
  account_id = var.account_id
  zone       = "docs.example.net"
  plan       = "business"
}

# The previous WAF is switched off for the whole zone; its package settings below are kept for the day
# it is switched back on.
resource "cloudflare_zone_settings_override" "docs" {
  zone_id = cloudflare_zone.docs.id

  settings {
    always_use_https = "on"
    min_tls_version  = "1.2"
    waf              = "off"
    security_level   = "medium"
  }
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = cloudflare_zone.docs.id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "challenge"
}
