provider "cloudflare" {}

module "waf" {
  source = "../../"

  zone_id     = "3f1bc18efe333337886cd2d0f6fa0000"
  sensitivity = "low"
  action_mode = "simulate"

  anomaly_packages = [
    {
      name = "owasp"
      groups = {
        "de677e5818985db1285d0e80225f06e5" = "off"
        "cfda825dfda411ea218cb70e6c88e82e" = "off"
      }
    },
  ]
}
