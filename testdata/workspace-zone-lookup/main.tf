# One root, one workspace per environment: the zone comes from var.zones by workspace.
variable "zones" {
  type = map(string)
  default = {
    staging = "3a4b5c6d7e8f90112233445566778899"
    prod    = "4b5c6d7e8f9011223344556677889900"
  }
}

locals {
  zone_id = lookup(var.zones, terraform.workspace)
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = local.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "medium"
  action_mode = "challenge"
}

resource "cloudflare_waf_group" "xss" {
  zone_id    = local.zone_id
  package_id = "1e334934fd7ae32ad705667f8c1057aa"
  group_id   = "de677e5818985db1285d0e80225f06e5"
  mode       = "off"
}
