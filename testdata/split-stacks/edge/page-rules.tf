# Page rules of the docs zone, already in provider 5 syntax.
locals {
  docs_zone_id = "5b8e2f1c7d4a4e9fb3c6a0d2e8f1b4c7"
}

resource "cloudflare_page_rule" "status_page" {
  zone_id  = local.docs_zone_id
  target   = "https://docs.example.net/status*"
  priority = 3
  status   = "active"
  actions = {
    disable_security = true
    cache_level      = "bypass"
  }
}

resource "cloudflare_page_rule" "search" {
  zone_id  = local.docs_zone_id
  target   = "docs.example.net/search?q=*"
  priority = 2
  actions = {
    waf = "off"
  }
}

resource "cloudflare_page_rule" "assets" {
  zone_id  = local.docs_zone_id
  target   = "*docs.example.net/assets/*"
  priority = 1
  actions = {
    cache_level = "cache_everything"
  }
}
