variable "zone_id" {
  type = string
}

variable "firewall_rules" {
  type = map(any)
}

variable "page_rules" {
  type = map(any)
}

module "edge" {
  source         = "../modules/edge"
  zone_id        = var.zone_id
  firewall_rules = var.firewall_rules
  page_rules     = var.page_rules
}
