# Names that are also properties of every JavaScript object (Object.prototype): all legal Terraform
# identifiers and map keys. Nothing here may be confused with an inherited property.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

variable "toString" {
  type    = string
  default = "5a1f3f8c0c6a4e4f9b7d2c1e0a9b8c7d"
}

variable "valueOf" {
  type = map(string)
  default = {
    constructor = "off"
    __proto__   = "on"
  }
}

locals {
  hasOwnProperty = {
    constructor = { zone_id = cloudflare_zone.constructor.id, sensitivity = "high" }
    toString    = { zone_id = cloudflare_zone.constructor.id, sensitivity = "low" }
  }
}

resource "cloudflare_zone" "constructor" {
  account_id = var.toString
  zone       = "example.com"
  plan       = "business"
}

module "__proto__" {
  source   = "./modules/waf"
  for_each = local.hasOwnProperty

  zone_id     = each.value.zone_id
  sensitivity = each.value.sensitivity
  group_modes = var.valueOf
}

resource "cloudflare_page_rule" "isPrototypeOf" {
  zone_id  = cloudflare_zone.constructor.id
  target   = "example.com*"
  priority = 1

  actions {
    disable_security = true
  }
}

resource "cloudflare_filter" "propertyIsEnumerable" {
  zone_id    = cloudflare_zone.constructor.id
  expression = "(http.request.uri.path eq \"/healthz\")"
}

resource "cloudflare_firewall_rule" "toLocaleString" {
  zone_id   = cloudflare_zone.constructor.id
  filter_id = cloudflare_filter.propertyIsEnumerable.id
  action    = "bypass"
  products  = ["waf"]
}

output "__proto__" {
  value = cloudflare_zone.constructor.id
}

output "constructor" {
  value = module.__proto__["toString"].package_id
}
