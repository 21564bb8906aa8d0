# One configuration, one workspace per region: the zone and its group modes come from waf.yaml.
locals {
  settings = yamldecode(file("${path.module}/waf.yaml"))[terraform.workspace]
}

module "waf" {
  source = "../../modules/legacy-waf"

  zone_id     = local.settings.zone_id
  group_modes = local.settings.group_modes
}
