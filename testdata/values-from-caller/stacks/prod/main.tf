# The production stack sets the module's settings itself: known offline.
module "owasp" {
  source = "../../modules/owasp"

  zone_id     = "0da42c8d2132a9ddaf714f9e7c920711"
  mode        = "simulate"
  sensitivity = "off"
}
