# No terraform block, so no version constraint: the gate's PROVIDER_UPGRADE_BLOCKED points at the legacy
# package (line 14), not at the ruleset written above it.
resource "cloudflare_ruleset" "custom" {
  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"
  name    = "custom"
  kind    = "zone"
  phase   = "http_request_firewall_custom"
  rules {
    action     = "block"
    expression = "ip.src eq 192.0.2.1"
  }
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = "0da42c8d2132a9ddaf714f9e7c920711"
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "challenge"
}
