# Outputs other stacks read with terraform_remote_state.
output "waf_package_id" {
  description = "The OWASP package of the zone"
  value       = cloudflare_waf_package.owasp.id
}

output "xss_group_ids" {
  value = cloudflare_waf_group.xss[*].id
}

output "zone_id" {
  value = local.zone_id
}
