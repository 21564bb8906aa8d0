# One zone, named two ways in config only (no state): the package by the zone resource's reference, an
# older rule by the domain (provider 1.x/2.x `zone = "…"`). Both belong to one zone and one ruleset.
resource "cloudflare_zone" "example" {
  zone = "example.com"
  plan = "pro"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = cloudflare_zone.example.id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "low"
  action_mode = "block"
}

resource "cloudflare_waf_rule" "xss" {
  zone    = "example.com"
  rule_id = "100000356"
  mode    = "simulate"
}
