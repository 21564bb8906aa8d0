# Migrated by hand last quarter: the managed entry point ruleset, no legacy WAF left.
resource "cloudflare_ruleset" "waf_managed" {
  zone_id = "3d4e5f60718293a4b5c6d7e8f9011223"
  name    = "default"
  kind    = "zone"
  phase   = "http_request_firewall_managed"

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
