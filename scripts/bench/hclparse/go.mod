module cfwafmigrate/bench/hclparse

go 1.19

require github.com/hashicorp/hcl/v2 v2.20.1
