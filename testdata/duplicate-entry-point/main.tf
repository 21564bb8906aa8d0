terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.20"
    }
  }
}

variable "zone_id" {
  type    = string
  default = "c4d5e6f7a8b94c0d8e1f2a3b4c5d6e7f"
}

# Deploys the Cloudflare Managed Ruleset (written when the zone was migrated in the dashboard).
resource "cloudflare_ruleset" "managed_waf" {
  zone_id     = "c4d5e6f7a8b94c0d8e1f2a3b4c5d6e7f"
  name        = "default"
  description = ""
  kind        = "zone"
  phase       = "http_request_firewall_managed"

  rules {
    action = "execute"
    action_parameters {
      id = "efb7b8c949ac4650a09736fc376e9aee"
    }
    expression  = "true"
    description = "Cloudflare Managed Ruleset"
    enabled     = true
  }
}
