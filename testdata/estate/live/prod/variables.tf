variable "zone_id" {
  type = string
}

variable "group_modes" {
  type    = map(string)
  default = {}
}
