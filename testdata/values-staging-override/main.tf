# One root for every environment: the environment's tfvars file is passed by the pipeline
# (`terraform plan -var-file=env/staging.tfvars`) and is not loaded on its own.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

variable "environment" {
  type        = string
  description = "staging or production"
}

locals {
  zone_id      = "6d1e3b5a7c9f4e2d8b0a1c3e5f7d9b2a"
  staging_only = { staging = 1, production = 0 }
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "low"
  action_mode = "simulate"
}

# The API's staging clients trip the SQLi rules: a URI-based override there only.
resource "cloudflare_waf_override" "staging_api" {
  count    = local.staging_only[var.environment]
  zone_id  = local.zone_id
  urls     = ["staging.example.net/api/*"]
  priority = 1
  rules = {
    100015 = "disable"
    "100016" : "simulate"
  }
}
