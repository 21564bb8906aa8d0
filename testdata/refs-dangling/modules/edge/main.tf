variable "zone_id" {
  type = string
}

variable "package_id" {
  type = string
}

resource "cloudflare_filter" "edge" {
  zone_id     = var.zone_id
  description = "edge for ${var.package_id}"
  expression  = "(http.host eq \"edge.example.com\")"
}
