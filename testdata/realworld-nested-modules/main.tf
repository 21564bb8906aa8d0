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
  zones = {
    shop = {
      zone_id = "0da42c8d2132a9ddaf714f9e7c920711"
      rules = {
        "100000356"  = "simulate"
        "URI-958000" = "disable"
      }
    }
    "blog.example.org" = {
      zone_id = "9a7806061c88ada191ed06f989cc3dac"
      rules = {
        # A key with every character an address has to escape.
        "odd \"]key[ $${x}" = "block"
      }
    }
  }
}

module "zones" {
  source   = "./modules/zone"
  for_each = local.zones

  zone_id = each.value.zone_id
  rules   = each.value.rules
}
