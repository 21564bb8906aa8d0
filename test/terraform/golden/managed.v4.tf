# TODO: Replace <RULESET_ID> in the import block (see RULESET_ID_UNKNOWN).
resource "cloudflare_ruleset" "waf_managed_example_com" {
  zone_id     = cloudflare_zone.shop.id
  name        = "default"
  description = "Zone-level WAF managed rules (migrated from the previous WAF)"
  kind        = "zone"
  phase       = "http_request_firewall_managed"

  rules {
    action      = "skip"
    expression  = "(http.host eq \"shop.example.com\" and starts_with(http.request.uri.path, \"/admin/\"))"
    description = "Migrated from cloudflare_firewall_rule.bypass_admin (Bypass > WAF)"
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

  rules {
    action      = "execute"
    expression  = "true"
    description = "Cloudflare OWASP Core Ruleset"
    enabled     = true
    action_parameters {
      id = "4814384a9e5d4991b9815dcfc25d2f1f"
      overrides {
        categories {
          category = "paranoia-level-3"
          enabled  = false
        }
        categories {
          category = "paranoia-level-4"
          enabled  = false
        }
        rules {
          id              = "6179ae15870a4bb7b2d480d4843b323c"
          action          = "log"
          score_threshold = 40
        }
      }
    }
  }
}
