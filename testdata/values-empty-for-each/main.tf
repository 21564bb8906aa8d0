# One module instance per zone of the environment's tfvars; an environment with no zone (zones = {}) has
# no instance at all: nothing is unknown, the legacy blocks simply configure nothing there.
variable "zones" {
  type = map(object({ zone_id = string, sensitivity = string }))
}

module "waf" {
  for_each    = var.zones
  source      = "./modules/waf"
  zone_id     = each.value.zone_id
  sensitivity = each.value.sensitivity
}

resource "cloudflare_waf_rule" "extra" {
  for_each = {}
  zone_id  = each.value.zone_id
  rule_id  = each.key
  mode     = each.value.mode
}
