rulesets = {
  managed = {
    phase       = "http_request_firewall_managed"
    description = "Cloudflare Managed Ruleset"
    execute     = "efb7b8c949ac4650a09736fc376e9aee"
  }
}
