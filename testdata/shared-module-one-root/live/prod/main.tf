terraform {
  required_version = ">= 1.5.0"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

provider "cloudflare" {}

module "waf" {
  source  = "../../modules/waf"
  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"
}
