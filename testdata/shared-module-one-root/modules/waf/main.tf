variable "zone_id" {
  type = string
}

variable "enabled" {
  type    = bool
  default = true
}

resource "cloudflare_waf_package" "owasp" {
  count       = var.enabled ? 1 : 0
  zone_id     = var.zone_id
  package_id  = "c504870194831cd12c3fc0284f294abb"
  sensitivity = "low"
  action_mode = "block"
}
