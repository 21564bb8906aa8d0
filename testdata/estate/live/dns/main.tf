terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

resource "aws_route53_record" "www" {
  zone_id = "Z0123456789ABCDEFGHIJ"
  name    = "www.example.com"
  type    = "CNAME"
  ttl     = 300
  records = ["example.com.cdn.cloudflare.net"]
}
