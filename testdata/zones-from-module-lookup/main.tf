# Real-world shape: one module per site, each looking its zone up inside the module; the zone ids are read
# from the provider at plan time, so offline none is known and every module instance is its own zone.
module "shop" {
  source = "./modules/lookup"
  domain = "shop.example.com"
}

module "blog" {
  source = "./modules/lookup"
  domain = "blog.example.com"
}

variable "sites" {
  type = map(string)
  default = {
    api  = "api.example.com"
    docs = "docs.example.com"
  }
}

module "site" {
  for_each = var.sites
  source   = "./modules/lookup"
  domain   = each.value
}

# Two calls with the same zone expression: provably the same zone.
variable "main_zone_id" {
  type = string
}

module "xss_www" {
  source  = "./modules/by-id"
  zone_id = var.main_zone_id
}

module "xss_app" {
  source  = "./modules/by-id"
  zone_id = var.main_zone_id
}

# for_each over objects whose zone ids are variables nobody set: each.value.zone_id is another zone per key.
variable "eu_zone_id" {
  type = string
}

variable "us_zone_id" {
  type = string
}

locals {
  regions = {
    eu = { zone_id = var.eu_zone_id }
    us = { zone_id = var.us_zone_id }
  }
}

module "region" {
  for_each = local.regions
  source   = "./modules/by-id"
  zone_id  = each.value.zone_id
}

resource "cloudflare_waf_rule" "sqli" {
  for_each = local.regions
  zone_id  = each.value.zone_id
  rule_id  = "100000356"
  mode     = "simulate"
}
