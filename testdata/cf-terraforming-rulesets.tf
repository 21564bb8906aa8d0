resource "cloudflare_ruleset" "terraform_managed_resource_3b1c9a8d5e7f4a2b9c0d1e2f3a4b5c6d_0" {
  kind    = "zone"
  name    = "default"
  phase   = "http_request_firewall_custom"
  zone_id = "9a7806061c88ada191ed06f989cc3dac"
  rules {
    action      = "block"
    description = "Block bad bots"
    enabled     = true
    expression  = "(cf.client.bot)"
  }
}

resource "cloudflare_ruleset" "terraform_managed_resource_2c0fc9fa937b4d3fb7a4ec1e3f9f8e21_1" {
  kind    = "zone"
  name    = "default"
  phase   = "http_request_firewall_managed"
  zone_id = "9a7806061c88ada191ed06f989cc3dac"
  rules {
    action      = "skip"
    description = "WAF Off for blog.example.org/wp-admin/*"
    enabled     = true
    expression  = "(http.host eq \"blog.example.org\" and starts_with(http.request.uri.path, \"/wp-admin/\"))"
    action_parameters {
      ruleset = "current"
    }
    logging {
      enabled = true
    }
  }
  rules {
    action      = "execute"
    description = "zone"
    enabled     = true
    expression  = "true"
    action_parameters {
      id      = "efb7b8c949ac4650a09736fc376e9aee"
      version = "latest"
    }
  }
  rules {
    action      = "execute"
    description = "zone"
    enabled     = true
    expression  = "true"
    action_parameters {
      id      = "4814384a9e5d4991b9815dcfc25d2f1f"
      version = "latest"
      overrides {
        categories {
          category = "paranoia-level-3"
          enabled  = false
        }
        categories {
          category = "paranoia-level-4"
          enabled  = false
        }
        rules {
          action          = "block"
          id              = "6179ae15870a4bb7b2d480d4843b323c"
          score_threshold = 40
        }
      }
    }
  }
}

resource "cloudflare_ruleset" "terraform_managed_resource_7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a_2" {
  kind    = "zone"
  name    = "default"
  phase   = "http_ratelimit"
  zone_id = "9a7806061c88ada191ed06f989cc3dac"
  rules {
    action      = "block"
    description = "Login throttle"
    enabled     = true
    expression  = "(http.request.uri.path eq \"/wp-login.php\")"
    ratelimit {
      characteristics     = ["cf.colo.id", "ip.src"]
      period              = 60
      requests_per_period = 10
      mitigation_timeout  = 600
    }
  }
}
