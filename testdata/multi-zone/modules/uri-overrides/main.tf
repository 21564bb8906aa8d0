variable "zone_id" {
  type = string
}

resource "cloudflare_waf_override" "checkout" {
  zone_id     = var.zone_id
  description = "Checkout posts large bodies"
  urls        = ["shop.example.com/checkout/*", "shop.example.com/cart"]
  priority    = 5

  # Old exporter output kept the JSON style.
  rules = {
    "100015" : "disable",
    "100016" : "simulate"
  }
  rewrite_action = {
    default   = "block"
    challenge = "block"
  }
}
