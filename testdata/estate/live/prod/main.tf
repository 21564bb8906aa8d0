module "waf" {
  source = "../../modules/legacy-waf"

  zone_id     = var.zone_id
  sensitivity = "high"
  group_modes = var.group_modes
}
