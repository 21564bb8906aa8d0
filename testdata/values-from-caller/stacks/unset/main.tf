# This stack passes its own variables through; their values live in a tfvars file kept out of the
# repository, so nothing offline says what they are.
variable "waf_sensitivity" {
  type = string
}

variable "waf_mode" {
  type = string
}

module "owasp" {
  source = "../../modules/owasp"

  zone_id     = "9a7806061c88ada191ed06f989cc3dac"
  mode        = var.waf_mode
  sensitivity = var.waf_sensitivity
}
