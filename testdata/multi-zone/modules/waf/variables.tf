variable "zone_id" {
  type        = string
  description = "Zone whose previous WAF is configured."
}

variable "sensitivity" {
  type    = string
  default = "high"

  validation {
    condition     = contains(["high", "medium", "low", "off"], var.sensitivity)
    error_message = "Sensitivity must be high, medium, low or off."
  }
}

variable "action_mode" {
  type    = string
  default = "challenge"
}

variable "disabled_groups" {
  type    = map(string)
  default = {}
}

variable "rule_modes" {
  type = map(string)
  default = {
    "100000356" = "simulate"
    "100008"    = "disable"
  }
}
