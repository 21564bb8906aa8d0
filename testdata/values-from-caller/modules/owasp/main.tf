# A reusable module: every WAF setting comes from the caller, none has a default.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

variable "zone_id" {
  type = string
}

variable "sensitivity" {
  type        = string
  description = "high, medium, low or off"
}

variable "mode" {
  type        = string
  description = "simulate, block or challenge"
}

variable "package_id" {
  type    = string
  default = "a25a9a7e9c00afc1fb2e0245519d725b"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = var.package_id
  sensitivity = var.sensitivity
  action_mode = var.mode
}
