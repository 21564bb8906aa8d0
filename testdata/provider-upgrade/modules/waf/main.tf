terraform {
  required_providers {
    # No version here: the module leaves the choice to its caller.
    cloudflare = {
      source = "registry.terraform.io/cloudflare/cloudflare"
    }
  }
}

variable "zone_id" {
  type = string
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "block"
}

resource "cloudflare_waf_group" "honey_pot" {
  zone_id  = var.zone_id
  group_id = "de677e5818985db1285d0e80225f06e5"
  mode     = "off"
}
