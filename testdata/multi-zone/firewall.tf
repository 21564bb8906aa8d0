# Firewall rules and page rules that the WAF migration converts into skip rules.

resource "cloudflare_filter" "health_checks" {
  zone_id     = cloudflare_zone.shop.id
  description = "Uptime monitors"
  expression  = <<-EOT
    (ip.src in {192.0.2.10 192.0.2.11} and http.request.uri.path eq "/healthz")
  EOT
}

resource "cloudflare_firewall_rule" "health_checks" {
  zone_id     = cloudflare_zone.shop.id
  description = "Let monitors through the WAF"
  filter_id   = cloudflare_filter.health_checks.id
  action      = "bypass"
  products    = ["waf"]
  priority    = 10
}

resource "cloudflare_filter" "partners" {
  count      = 2
  zone_id    = cloudflare_zone.shop.id
  expression = "(http.request.uri.path contains \"/partner-api/v${count.index + 1}/\")"
}

resource "cloudflare_firewall_rule" "partners" {
  count     = 2
  zone_id   = cloudflare_zone.shop.id
  filter_id = cloudflare_filter.partners[count.index].id
  action    = "bypass"
  products  = toset(["waf", "uaBlock"])
}

// A block rule: not touched by the migration.
resource "cloudflare_filter" "bad_bots" {
  zone_id    = cloudflare_zone.blog.id
  expression = "(cf.client.bot)"
}

resource "cloudflare_firewall_rule" "bad_bots" {
  zone_id   = cloudflare_zone.blog.id
  filter_id = cloudflare_filter.bad_bots.id
  action    = "block"
}

resource "cloudflare_page_rule" "legacy_api" {
  zone_id  = cloudflare_zone.shop.id
  target   = "*shop.example.com/legacy-api/*"
  priority = 1

  actions {
    disable_security = true
  }
}

resource "cloudflare_page_rule" "admin_waf_off" {
  zone_id  = cloudflare_zone.blog.id
  target   = "blog.example.org/wp-admin/*"
  priority = 2

  actions {
    waf            = "off"
    security_level = "essentially_off"
  }
}

/*
resource "cloudflare_waf_rule" "commented_out" {
  zone_id = cloudflare_zone.blog.id
  rule_id = "100001"
  mode    = "disable"
}
*/
