terraform {
  required_version = ">= 1.5.0"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

locals {
  # Zones whose legacy WAF is managed here. Keyed by a short name.
  waf_zones = {
    shop = {
      zone_id     = cloudflare_zone.shop.id
      sensitivity = "medium"
      action_mode = "simulate"
    }
    blog = {
      zone_id     = cloudflare_zone.blog.id
      sensitivity = "low"
      action_mode = "block"
    }
  }
}

resource "cloudflare_zone" "shop" {
  account_id = var.account_id
  zone       = "shop.example.com"
  plan       = "business"
}

resource "cloudflare_zone" "blog" {
  account_id = var.account_id
  zone       = "blog.example.org"
  plan       = "enterprise"
}

# Previous-WAF settings per zone, through the shared module.
module "waf" {
  source   = "./modules/waf"
  for_each = local.waf_zones

  zone_id     = each.value.zone_id
  sensitivity = each.value.sensitivity
  action_mode = each.value.action_mode
  disabled_groups = {
    "de677e5818985db1285d0e80225f06e5" = "off" # Project Honey Pot
  }
}

# URI-based overrides only exist on the shop zone.
module "uri_overrides" {
  source = "./modules/uri-overrides"
  count  = var.enable_uri_overrides ? 1 : 0

  zone_id = cloudflare_zone.shop.id
}

variable "account_id" {
  type    = string
  default = "f037e56e89293a057740de681ac9abbe"
}

variable "enable_uri_overrides" {
  type    = bool
  default = true
}
