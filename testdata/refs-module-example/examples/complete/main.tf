provider "cloudflare" {}

module "waf" {
  source = "../../"

  zone_id     = "0da42c8d2132a9ddaf714f9e7c920711"
  sensitivity = "high"
  action_mode = "simulate"
  groups = {
    de677e5818985db1285d0e80225f06e5 = { mode = "off" }
  }
}

output "waf_package" {
  description = "Re-exposed from the module."
  value       = module.waf.waf_package
}

output "waf_package_id" {
  value = try(module.waf.waf_package.id, "")
}

output "zone_id" {
  value = module.waf.zone_id
}
