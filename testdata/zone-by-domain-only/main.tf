# Provider 1.x/2.x style: the zone named by its domain, and no cloudflare_zone in this tree. The domain
# is known; the zone's id is not (only state or the API has it).
resource "cloudflare_waf_rule" "URI-958000" {
    zone    = "example.com"
    rule_id = "958000"
    mode    = "off"
}
