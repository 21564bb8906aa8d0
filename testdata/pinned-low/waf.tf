# Previous managed WAF of the shop zone, as set up in 2021.

variable "zone_id" {
  type    = string
  default = "0da42c8d2132a9ddaf714f9e7c920711"
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "low"
  action_mode = "block"
}

resource "cloudflare_waf_group" "honey_pot" {
  zone_id    = var.zone_id
  group_id   = "de677e5818985db1285d0e80225f06e5"
  package_id = "a25a9a7e9c00afc1fb2e0245519d725b"
  mode       = "off"
}

resource "cloudflare_filter" "monitors" {
  zone_id     = var.zone_id
  description = "Uptime monitors"
  expression  = "(ip.src in {192.0.2.10 192.0.2.11} and http.request.uri.path eq \"/healthz\")"
}

resource "cloudflare_firewall_rule" "monitors" {
  zone_id     = var.zone_id
  description = "Let monitors through the WAF"
  filter_id   = cloudflare_filter.monitors.id
  action      = "bypass"
  products    = ["waf"]
  priority    = 10
}
