zone_id = "7c4a8d09ca3762af61e59520943dc264"

firewall_rules = {
  monitoring = {
    expression = "(ip.src in {192.0.2.0/24})"
    action     = "bypass"
    products   = ["waf"]
    priority   = 1
  }
  bad_bots = {
    expression = "(cf.client.bot)"
    action     = "block"
  }
}

page_rules = {
  status = {
    target           = "status.example.com/*"
    priority         = 1
    disable_security = true
  }
  admin = {
    target   = "example.com/admin/*"
    priority = 2
    waf      = "on"
  }
}
