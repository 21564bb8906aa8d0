terraform {
  required_version = ">= 1.5"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

# Set per pipeline (TF_VAR_waf_enabled, TF_VAR_allow_monitoring): not in any file here.
variable "waf_enabled" {
  type = bool
}

variable "allow_monitoring" {
  type = bool
}

module "waf" {
  source           = "../../modules/waf"
  zone_id          = "0da42c8d2132a9ddaf714f9e7c920711"
  enabled          = var.waf_enabled
  allow_monitoring = var.allow_monitoring
}
