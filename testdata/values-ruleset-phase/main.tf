# The zone's rulesets come from one map, filled per environment by a tfvars file the pipeline passes
# (`-var-file=../../config/prod.tfvars`), which is not in this repository: which phase each is in is known
# only to that file. The legacy WAF of the same zone is still here.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.35"
    }
  }
}

provider "cloudflare" {}

variable "rulesets" {
  description = "Rulesets of the zone, by name: phase, and the managed ruleset each executes."
  type = map(object({
    phase       = string
    description = string
    execute     = string
  }))
}

locals {
  zone_id = "7d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "high"
  action_mode = "challenge"
}

resource "cloudflare_ruleset" "zone" {
  for_each = var.rulesets
  zone_id  = local.zone_id
  name     = each.key
  kind     = "zone"
  phase    = each.value.phase

  rules {
    action = "execute"
    action_parameters {
      id = each.value.execute
    }
    expression  = "true"
    description = each.value.description
  }
}
