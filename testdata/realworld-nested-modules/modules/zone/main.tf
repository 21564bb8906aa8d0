variable "zone_id" {
  type = string
}

variable "rules" {
  type = map(string)
}

variable "waf_enabled" {
  type    = bool
  default = true
}

module "waf" {
  source = "../waf"
  count  = var.waf_enabled ? 1 : 0

  zone_id = var.zone_id
  rules   = var.rules
}
