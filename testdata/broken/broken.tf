resource "cloudflare_waf_rule" "half_written" {
  zone_id = "1b2e5a7f0c8d4e6f9a3b5c7d9e1f3a5b"
  rule_id = "100015"
  mode    = [
}
