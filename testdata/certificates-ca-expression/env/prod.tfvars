certificate_authority = "lets_encrypt"
