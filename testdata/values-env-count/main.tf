# One root per environment is the same code: the tfvars file (not in the tree's defaults) picks which
# legacy blocks have an instance. In production the package and the URI override have none; in dev
# no legacy block has one.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

variable "environment" {
  type = string
}

variable "zone_id" {
  type = string
}

module "waf" {
  source      = "./modules/waf"
  environment = var.environment
  zone_id     = var.zone_id
}
