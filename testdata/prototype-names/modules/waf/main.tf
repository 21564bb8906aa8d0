variable "zone_id" {
  type = string
}

variable "sensitivity" {
  type = string
}

variable "group_modes" {
  type    = map(string)
  default = {}
}

resource "cloudflare_waf_package" "valueOf" {
  zone_id     = var.zone_id
  package_id  = "c504870194831cd12c3fc0284f294abb"
  sensitivity = var.sensitivity
  action_mode = "block"
}

resource "cloudflare_waf_group" "__lookupGetter__" {
  for_each = var.group_modes

  zone_id  = var.zone_id
  group_id = each.key
  mode     = each.value
}

output "package_id" {
  value = cloudflare_waf_package.valueOf.id
}
