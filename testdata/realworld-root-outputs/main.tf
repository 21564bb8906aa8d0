terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

variable "environment" {
  type        = string
  description = "staging or production"
  default     = "staging"
}

locals {
  zone_id      = "7c5dae5552338874e5053f2534d2767a"
  staging_only = { staging = 1, production = 0 }
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "challenge"
}

# Too noisy for staging: off there, on in production (no instance).
resource "cloudflare_waf_group" "xss" {
  count      = local.staging_only[var.environment]
  zone_id    = local.zone_id
  package_id = cloudflare_waf_package.owasp.package_id
  group_id   = "cfda825dfda411ea218cb70e6c88e82e"
  mode       = "off"
}
