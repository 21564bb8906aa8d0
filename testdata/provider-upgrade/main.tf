# A stack whose provider constraint has no upper bound while the legacy WAF is still managed in a module:
# `terraform init -upgrade` would select provider 4.x or 5.x, which no longer has cloudflare_waf_*.
terraform {
  required_version = ">= 1.5.0"

  required_providers {
    # cloudflare = "~> 2.0"   (the old pin, kept as a comment: not an entry)
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = ">= 3.0"
    }
  }
}

provider "cloudflare" {}

module "waf" {
  source  = "./modules/waf"
  zone_id = "3f8d2c1b0a9e8d7c6b5a4f3e2d1c0b9a"
}
