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
  staging_only = { staging = 1, production = 0 }
}

# Noisy in staging only: one instance there, none in production, same code.
resource "cloudflare_waf_group" "noisy" {
  count      = local.staging_only[var.environment]
  zone_id    = "3f1bc18efe333337886cd2d0f6fa0000"
  package_id = "1e334934fd7ae32ad705667f8c1057aa"
  group_id   = "de677e5818985db1285d0e80225f06e5"
  mode       = "off"
}

resource "cloudflare_waf_rule" "sqli" {
  zone_id = "3f1bc18efe333337886cd2d0f6fa0000"
  rule_id = "100000356"
  mode    = "simulate"
}
