# Multi-zone fan-out with the zone ids looked up by name (data sources are read only at plan time):
# offline no zone id is known, yet every zone is a different zone and gets its own ruleset.
variable "domains" {
  default = ["shop.example.com", "blog.example.com"]
}

data "cloudflare_zones" "by_name" {
  for_each = toset(var.domains)
  filter {
    name = each.key
  }
}

module "waf" {
  for_each    = toset(var.domains)
  source      = "./modules/zone"
  zone_id     = data.cloudflare_zones.by_name[each.key].zones[0].id
  sensitivity = each.key == "shop.example.com" ? "low" : "high"
}

data "cloudflare_zones" "listed" {
  count = length(var.domains)
  filter {
    name = var.domains[count.index]
  }
}

resource "cloudflare_waf_rule" "sqli" {
  count   = length(var.domains)
  zone_id = data.cloudflare_zones.listed[count.index].zones[0].id
  rule_id = "100000356"
  mode    = "simulate"
}
