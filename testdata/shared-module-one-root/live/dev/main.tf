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
  zone_id = "0da42c8d2132a9ddaf714f9e7c920711"
}
