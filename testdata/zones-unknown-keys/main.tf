# Two fan-outs over maps only the environment's tfvars give: offline their keys are unknown, yet var.shops's
# zones are not var.blogs's: each for_each is its own zone entry (var.shops[each.key]), never one "each.value".
variable "shops" {
  type = map(string)
}
variable "blogs" {
  type = map(string)
}

module "shop" {
  for_each = var.shops
  source   = "./modules/waf"
  zone_id  = each.value
}

module "blog" {
  for_each = var.blogs
  source   = "./modules/waf"
  zone_id  = each.value
}

resource "cloudflare_waf_rule" "a" {
  for_each = var.shops
  zone_id  = each.value
  rule_id  = "100000356"
  mode     = "simulate"
}

resource "cloudflare_waf_rule" "b" {
  for_each = var.blogs
  zone_id  = each.value
  rule_id  = "100000357"
  mode     = "simulate"
}
