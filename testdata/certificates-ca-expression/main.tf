# The CA of the packs is chosen per environment (tfvars): offline, without the environment's tfvars, it is
# not known whether they use Let's Encrypt. `certs --fix` edits only the literal; the others are refused.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.52"
    }
  }
}

variable "certificate_authority" {
  type = string
}

locals {
  blog_ca = var.certificate_authority
}

resource "cloudflare_certificate_pack" "shop" {
  zone_id               = "0da42c8d2132a9ddaf714f9e7c920711"
  type                  = "advanced"
  hosts                 = ["shop.example.com", "*.shop.example.com"]
  validation_method     = "txt"
  validity_days         = 90
  certificate_authority = var.certificate_authority
}

resource "cloudflare_certificate_pack" "blog" {
  zone_id               = "0da42c8d2132a9ddaf714f9e7c920711"
  type                  = "advanced"
  hosts                 = ["blog.example.com"]
  validation_method     = "txt"
  validity_days         = 90
  certificate_authority = local.blog_ca
}

resource "cloudflare_certificate_pack" "api" {
  zone_id               = "0da42c8d2132a9ddaf714f9e7c920711"
  type                  = "advanced"
  hosts                 = ["api.example.com"]
  validation_method     = "txt"
  validity_days         = 90
  certificate_authority = "lets_encrypt"
}
