variable "zone_id" {
  type = string
}

resource "cloudflare_waf_group" "xss" {
  zone_id    = var.zone_id
  group_id   = "de677e5818985db1285d0e80225f06e5"
  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"
  mode       = "off"
}
