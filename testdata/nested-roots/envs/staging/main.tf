terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

locals {
  zone_id = "9b3c4d5e6f708192a3b4c5d6e7f8091a"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "simulate"
}

resource "cloudflare_waf_group" "wordpress" {
  zone_id  = local.zone_id
  group_id = "de677e5818985db1285d0e80225f06e5"
  mode     = "off"
}
