# `cf-terraforming generate --resource-type cloudflare_ruleset` output for the pinned-low zone, as the
# Rulesets API returns it: every rule carries its ref (settable only from provider 4.2.0).
resource "cloudflare_ruleset" "terraform_managed_resource_4814384a9e5d4991b9815dcfc25d2f1f_0" {
  kind    = "zone"
  name    = "default"
  phase   = "http_request_firewall_managed"
  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"
  rules {
    action      = "skip"
    description = "Let monitors through the WAF"
    enabled     = true
    expression  = "(ip.src in {192.0.2.10 192.0.2.11} and http.request.uri.path eq \"/healthz\")"
    ref         = "2b1d6a5c34e64a6e8f0d7c9b1a2e3f40"
    action_parameters {
      ruleset = "current"
    }
    logging {
      enabled = true
    }
  }
  rules {
    action      = "execute"
    description = "zone"
    enabled     = true
    expression  = "true"
    ref         = "9c2f1e0d8b7a46c5a3e2d1f0b9c8a7e6"
    action_parameters {
      id      = "4814384a9e5d4991b9815dcfc25d2f1f"
      version = "latest"
      overrides {
        categories {
          category = "paranoia-level-2"
          enabled  = false
        }
        rules {
          action          = "block"
          id              = "6179ae15870a4bb7b2d480d4843b323c"
          score_threshold = 40
        }
      }
    }
  }
}
