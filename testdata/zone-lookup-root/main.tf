# Zones looked up by name at the root: the ids are read from the provider when terraform plans, so offline
# they are unknown, no variable can set them, and the root's HCL can still use the lookup as written.
terraform {
  required_version = ">= 1.6"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

data "cloudflare_zone" "this" {
  name = "example.com"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = data.cloudflare_zone.this.id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "block"
}

data "cloudflare_zone" "blog" {
  filter {
    name = "blog.example.com"
  }
}

resource "cloudflare_waf_group" "xss" {
  zone_id    = data.cloudflare_zone.blog.zone_id
  group_id   = "de677e5818985db1285d0e80225f06e5"
  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"
  mode       = "off"
}

data "cloudflare_zones" "shop" {
  filter {
    name = "shop.example.com"
  }
}

resource "cloudflare_waf_rule" "sqli" {
  zone_id = data.cloudflare_zones.shop.zones[0].id
  rule_id = "100000356"
  mode    = "simulate"
}
