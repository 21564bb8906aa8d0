# The same certificates in Cloudflare provider 5.x syntax: nested attributes (`ssl = { … }`),
# cloudflare_zone with `name` and `account = { id }`, cloudflare_custom_ssl flattened.

terraform {
  required_version = ">= 1.5.0"

  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 5.8"
    }
  }
}

variable "account_id" {
  type    = string
  default = "f037e56e89293a057740de681ac9abbe"
}

variable "checkout_private_key" {
  type      = string
  sensitive = true
}

variable "legacy_private_key" {
  type      = string
  sensitive = true
}

resource "cloudflare_zone" "shop" {
  account = {
    id = var.account_id
  }
  name = "shop.example.com"
  type = "full"
}

resource "cloudflare_certificate_pack" "shop_wildcard" {
  zone_id               = cloudflare_zone.shop.id
  type                  = "advanced"
  hosts                 = ["shop.example.com", "*.shop.example.com"]
  validation_method     = "txt"
  validity_days         = 90
  certificate_authority = "lets_encrypt"
  cloudflare_branding   = false
}

resource "cloudflare_certificate_pack" "shop_api" {
  zone_id               = cloudflare_zone.shop.id
  type                  = "advanced"
  hosts                 = ["shop.example.com", "api.shop.example.com"]
  validation_method     = "txt"
  validity_days         = 30
  certificate_authority = "google"
}

resource "cloudflare_total_tls" "shop" {
  zone_id               = cloudflare_zone.shop.id
  enabled               = true
  certificate_authority = "lets_encrypt"
}

resource "cloudflare_custom_hostname" "tenant_acme" {
  zone_id  = "9a7806061c88ada191ed06f989cc3dac"
  hostname = "shop.acme-tenant.example"
  ssl = {
    method                = "txt"
    type                  = "dv"
    certificate_authority = "lets_encrypt"
    bundle_method         = "ubiquitous"
    settings = {
      min_tls_version = "1.2"
      http2           = "on"
    }
  }
}

resource "cloudflare_custom_hostname" "tenant_globex" {
  zone_id  = "9a7806061c88ada191ed06f989cc3dac"
  hostname = "store.globex-tenant.example"
  ssl = {
    method                = "http"
    type                  = "dv"
    certificate_authority = "google"
  }
}

resource "cloudflare_custom_ssl" "legacy_clients" {
  zone_id       = cloudflare_zone.shop.id
  certificate   = var.legacy_certificate
  private_key   = var.legacy_private_key
  bundle_method = "force"
  type          = "sni_custom"
}

resource "cloudflare_custom_ssl" "checkout" {
  zone_id       = cloudflare_zone.shop.id
  certificate   = var.checkout_certificate
  private_key   = var.checkout_private_key
  bundle_method = "ubiquitous"
  type          = "sni_custom"
}

# The uploaded certificates come from the pipeline (not in the repository): not known offline.
variable "legacy_certificate" {
  type = string
}

variable "checkout_certificate" {
  type = string
}
