# Edge rules of one zone. The rule definitions come from the caller, which reads them from tfvars.
variable "zone_id" {
  type = string
}

variable "firewall_rules" {
  type    = map(any)
  default = {}
}

variable "page_rules" {
  type    = map(any)
  default = {}
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "challenge"
}

resource "cloudflare_filter" "rule" {
  for_each   = var.firewall_rules
  zone_id    = var.zone_id
  expression = each.value.expression
}

resource "cloudflare_firewall_rule" "rule" {
  for_each    = var.firewall_rules
  zone_id     = var.zone_id
  description = each.key
  filter_id   = cloudflare_filter.rule[each.key].id
  action      = each.value.action
  products    = lookup(each.value, "products", null)
  priority    = try(each.value.priority, null)
}

resource "cloudflare_page_rule" "rule" {
  for_each = var.page_rules
  zone_id  = var.zone_id
  target   = each.value.target
  priority = each.value.priority

  actions {
    disable_security = lookup(each.value, "disable_security", null)
    waf              = lookup(each.value, "waf", null)
  }
}
