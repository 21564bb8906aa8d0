certificate_authority = "google"
