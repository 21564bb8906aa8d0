terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

provider "cloudflare" {}

variable "team" {
  type    = string
  default = "edge"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = "3f1bc18efe333337886cd2d0f6fa0000"
  package_id  = "c504870194831cd12c3fc0284f294abb"
  sensitivity = "low"
  action_mode = "block"
}

# Read by other stacks through terraform_remote_state: published once the WAF is configured.
output "zone_id" {
  value      = "3f1bc18efe333337886cd2d0f6fa0000"
  depends_on = [cloudflare_waf_package.owasp]
}

output "team" {
  value = var.team

  precondition {
    condition     = cloudflare_waf_package.owasp.sensitivity != "off"
    error_message = "The WAF must be on."
  }
}

# Only exposes the legacy package: goes with it.
output "package" {
  value      = cloudflare_waf_package.owasp.id
  depends_on = [cloudflare_waf_package.owasp]
}
