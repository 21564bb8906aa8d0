terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

locals {
  zone_id = "8e2f6c4a1b3d4e5f9a0b1c2d3e4f5a6b"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "low"
  action_mode = "block"
}

# Office traffic skips the WAF, the user-agent blocks and rate limiting.
resource "cloudflare_filter" "office" {
  zone_id     = local.zone_id
  description = "Office egress"
  expression  = "(ip.src in {198.51.100.0/24 203.0.113.7})"
}

resource "cloudflare_firewall_rule" "office" {
  zone_id     = local.zone_id
  description = "Office: no WAF, no UA block, no rate limit"
  filter_id   = cloudflare_filter.office.id
  action      = "bypass"
  products    = ["waf", "uaBlock", "rateLimit"]
  priority    = 1
}

# Only the WAF for the webhook receiver.
resource "cloudflare_filter" "webhooks" {
  zone_id    = local.zone_id
  expression = "(http.request.uri.path eq \"/hooks/stripe\")"
}

resource "cloudflare_firewall_rule" "webhooks" {
  zone_id   = local.zone_id
  filter_id = cloudflare_filter.webhooks.id
  action    = "bypass"
  products  = ["waf"]
  priority  = 2
}
