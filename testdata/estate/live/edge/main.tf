# The edge team's rules for the production zone; its legacy WAF lives in live/prod.
variable "zone_id" {
  type    = string
  default = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
}

resource "cloudflare_page_rule" "status" {
  zone_id  = var.zone_id
  target   = "www.example.com/status*"
  priority = 1

  actions {
    disable_security = true
  }
}

resource "cloudflare_filter" "monitoring" {
  zone_id    = var.zone_id
  expression = "(ip.src in {192.0.2.10 192.0.2.11})"
}

resource "cloudflare_firewall_rule" "monitoring" {
  zone_id   = var.zone_id
  filter_id = cloudflare_filter.monitoring.id
  action    = "bypass"
  products  = ["waf"]
}
