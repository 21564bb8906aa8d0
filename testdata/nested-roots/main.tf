# The account-wide root at the top of the repository: the docs team's Page Rules. The environments are
# roots of their own below it (envs/*), each with its own state; terraform never reads them from here.
terraform {
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

resource "cloudflare_page_rule" "admin_no_waf" {
  zone_id  = "9b3c4d5e6f708192a3b4c5d6e7f8091a"
  target   = "staging.example.net/admin/*"
  priority = 1
  actions {
    disable_security = true
  }
}
