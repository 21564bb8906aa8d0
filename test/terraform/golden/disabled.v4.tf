resource "cloudflare_ruleset" "waf_managed_example_com" {
  zone_id     = cloudflare_zone.shop.id
  name        = "default"
  description = ""
  kind        = "zone"
  phase       = "http_request_firewall_managed"

  rules {
    action      = "execute"
    expression  = "true"
    description = "Cloudflare OWASP Core Ruleset (sensitivity off)"
    enabled     = false
    action_parameters {
      id = "4814384a9e5d4991b9815dcfc25d2f1f"
    }
  }
}
