# Halfway through the plan's steps: the legacy blocks are deleted and removed.tf's blocks forget the
# package (destroy = false), but nothing has been applied yet. The rule has no removed block.
terraform {
  required_version = ">= 1.7"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

removed {
  from = cloudflare_waf_package.owasp

  lifecycle {
    destroy = false
  }
}
