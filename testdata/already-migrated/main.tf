# A zone already on the new WAF: one cloudflare_ruleset in the managed phase, provider 4.x, no legacy
# resources. The gate passes, and a provider upgrade is safe.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.52"
    }
  }
}

provider "cloudflare" {}

resource "cloudflare_ruleset" "waf_managed" {
  zone_id     = "7c5b3a1f9e8d7c6b5a4f3e2d1c0b9a8f"
  name        = "Managed WAF"
  description = "Cloudflare Managed Ruleset and OWASP Core Ruleset"
  kind        = "zone"
  phase       = "http_request_firewall_managed"

  rules {
    action      = "skip"
    expression  = "(ip.src eq 198.51.100.7)"
    description = "Office scanner: skip the managed rules"
    enabled     = true
    action_parameters {
      ruleset = "current"
    }
    logging {
      enabled = true
    }
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
