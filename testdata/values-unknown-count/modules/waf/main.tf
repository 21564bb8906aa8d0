# A team's WAF module: the core rule set and the monitoring bypass are switched per environment.
variable "zone_id" {
  type = string
}

variable "enabled" {
  description = "Manage the OWASP package in this environment."
  type        = bool
}

variable "allow_monitoring" {
  description = "Let the uptime checker past the WAF."
  type        = bool
  default     = false
}

resource "cloudflare_waf_package" "owasp" {
  count       = var.enabled ? 1 : 0
  zone_id     = var.zone_id
  package_id  = "a25a9a7e9c00afc1fb2e0245519d725b"
  sensitivity = "low"
  action_mode = "simulate"
}

resource "cloudflare_filter" "monitoring" {
  count      = var.allow_monitoring ? 1 : 0
  zone_id    = var.zone_id
  expression = "(ip.src in {192.0.2.0/24})"
}

resource "cloudflare_firewall_rule" "monitoring" {
  count     = var.allow_monitoring ? 1 : 0
  zone_id   = var.zone_id
  filter_id = cloudflare_filter.monitoring[0].id
  action    = "bypass"
  products  = ["waf"]
  priority  = 1
}
