# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/cloudflare/cloudflare" {
  version     = "4.52.8"
  constraints = "~> 4.52"
  hashes = [
    "h1:Zk3ZqVvSx3gjPqkGl5Crb1eXh8wA4RAVbNMXm0d3HnI=",
  ]
}
