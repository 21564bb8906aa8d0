resource "cloudflare_filter" "ops" {
  zone_id    = "1b2e5a7f0c8d4e6f9a3b5c7d9e1f3a5b"
  expression = "(ip.src eq 198.51.100.7)"
}

# A real bug seen in history: set() is not a Terraform function.
resource "cloudflare_firewall_rule" "ops" {
  zone_id   = "1b2e5a7f0c8d4e6f9a3b5c7d9e1f3a5b"
  filter_id = cloudflare_filter.ops.id
  action    = "bypass"
  products  = set("waf")
}
