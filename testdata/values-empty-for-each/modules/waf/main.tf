variable "zone_id" {
  type = string
}

variable "sensitivity" {
  type = string
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = var.sensitivity
  action_mode = "block"
}
