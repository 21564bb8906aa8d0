# Added later by another team for the OWASP ruleset, unaware of managed_waf in main.tf.
resource "cloudflare_ruleset" "owasp" {
  zone_id     = "c4d5e6f7a8b94c0d8e1f2a3b4c5d6e7f"
  name        = "OWASP core ruleset"
  description = "OWASP"
  kind        = "zone"
  phase       = "http_request_firewall_managed"

  rules {
    action = "execute"
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
      }
    }
    expression  = "true"
    description = "OWASP Core Ruleset"
    enabled     = true
  }
}

# A custom rules entry point in the same zone: another phase, not a duplicate.
resource "cloudflare_ruleset" "custom" {
  zone_id = var.zone_id
  name    = "custom"
  kind    = "zone"
  phase   = "http_request_firewall_custom"

  rules {
    action      = "block"
    expression  = "(http.request.uri.path contains \"/wp-login.php\")"
    description = "No WordPress here"
    enabled     = true
  }
}
