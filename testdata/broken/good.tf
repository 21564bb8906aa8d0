resource "cloudflare_waf_package" "owasp" {
  zone_id     = "1b2e5a7f0c8d4e6f9a3b5c7d9e1f3a5b"
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "simulate"
}
