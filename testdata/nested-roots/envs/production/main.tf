terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = "0c4d5e6f708192a3b4c5d6e7f8091a2b"
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "block"
}
