output "waf_package" {
  description = "The OWASP package, if enabled."
  value       = try(cloudflare_waf_package.package[0], null)
}

output "group_ids" {
  value = { for k, g in cloudflare_waf_group.group : k => g.id }
}

output "anomaly_package_ids" {
  value = local.anomaly_package_ids
}

output "zone_id" {
  value = var.zone_id
}
