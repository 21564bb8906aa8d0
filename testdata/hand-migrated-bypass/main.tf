# A hand-written managed-phase ruleset that uses `action = "bypass"` (firewall-rules vocabulary, which the
# http_request_firewall_managed phase rejects), next to a legacy package not removed yet.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

provider "cloudflare" {}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b"
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "challenge"
}

resource "cloudflare_ruleset" "waf_managed" {
  zone_id = "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b"
  name    = "Managed WAF"
  kind    = "zone"
  phase   = "http_request_firewall_managed"

  rules {
    action      = "bypass"
    expression  = "(http.request.uri.path eq \"/healthz\")"
    description = "Health checks"
    enabled     = true
  }

  rules {
    action      = "execute"
    expression  = "true"
    description = "Cloudflare Managed Ruleset"
    enabled     = true
    action_parameters {
      id = "efb7b8c949ac4650a09736fc376e9aee"
    }
  }
}
