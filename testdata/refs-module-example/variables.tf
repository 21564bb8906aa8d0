variable "zone_id" {
  type        = string
  description = "The zone whose previous WAF this module manages."
}

variable "enabled" {
  type    = bool
  default = true
}

variable "sensitivity" {
  type    = string
  default = "medium"
}

variable "action_mode" {
  type    = string
  default = "challenge"
}

variable "groups" {
  type = map(object({
    mode = string
  }))
  default = {}
}
