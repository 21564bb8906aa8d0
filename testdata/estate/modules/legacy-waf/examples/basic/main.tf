terraform {
  required_version = ">= 1.5"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

module "waf" {
  source = "../../"

  zone_id = "4e5f60718293a4b5c6d7e8f901122334"
  group_modes = {
    "de677e5818985db1285d0e80225f06e5" = "off"
  }
}
