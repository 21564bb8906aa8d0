# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/cloudflare/cloudflare" {
  version     = "3.35.0"
  constraints = ">= 3.0"
  hashes = [
    "h1:8rO1U+k+sMJwQVsTIfs9NVvHdGwbf0VgHWD6XK1BJsk=",
  ]
}
