# The platform team's legacy WAF module: one package per zone, group modes from the caller.
variable "zone_id" {
  type        = string
  description = "Zone the WAF settings apply to."
}

variable "sensitivity" {
  type    = string
  default = "medium"
}

variable "group_modes" {
  type        = map(string)
  default     = {}
  description = "Managed rule group id => on/off."
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = var.sensitivity
  action_mode = "challenge"
}

resource "cloudflare_waf_group" "this" {
  for_each = var.group_modes

  zone_id    = var.zone_id
  group_id   = each.key
  package_id = "1e334934fd7ae32ad705667f8c1057aa"
  mode       = each.value
}

output "package_id" {
  value = cloudflare_waf_package.owasp.id
}
