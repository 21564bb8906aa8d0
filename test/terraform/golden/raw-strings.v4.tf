resource "cloudflare_ruleset" "waf_managed_example_com" {
  zone_id     = cloudflare_zone.shop.id
  name        = "default"
  description = "quotes \" and $${dollar} and %%{percent}"
  kind        = "zone"
  phase       = "http_request_firewall_managed"

  rules {
    action      = "skip"
    expression  = "http.request.uri.path matches r\"^/api/v[0-9]+/\\w+$\" or http.request.full_uri contains r#\"a\"b\"# or http.user_agent eq \"say \\\"hi\\\"\" or http.request.uri.query contains \"$${not_an_interpolation}\" or http.request.uri.query contains \"%%{not_a_directive}\" or http.host eq \"$$${already_doubled}\""
    description = "Page Rule \"Disable Security\" on shop.example.com/$${x}\\*\nsecond line"
    enabled     = true
    action_parameters {
      ruleset = "current"
    }
    logging {
      enabled = true
    }
  }
}
