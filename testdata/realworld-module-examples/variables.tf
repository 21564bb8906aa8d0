variable "zone_id" {
  type        = string
  description = "Zone the legacy WAF settings apply to."
}

variable "enabled" {
  type    = bool
  default = true
}

variable "sensitivity" {
  type    = string
  default = "medium"

  validation {
    condition     = contains(["high", "medium", "low", "off"], var.sensitivity)
    error_message = "The sensitivity must be high, medium, low or off."
  }
}

variable "action_mode" {
  type    = string
  default = "challenge"
}

variable "anomaly_packages" {
  type = list(object({
    name   = string
    groups = map(string)
  }))
  default = []
}
