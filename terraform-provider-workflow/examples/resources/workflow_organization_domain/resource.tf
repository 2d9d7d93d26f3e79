# A managed domain (sign-in, SSO) and an e-mail sending domain. The API has
# no read and no delete for domains: what is written is kept as written.
resource "workflow_organization_domain" "corp" {
  type              = "MANAGED"
  domain            = "example.com"
  name              = "Example"
  sso               = true
  self_registration = false
}

resource "workflow_organization_domain" "mail" {
  type   = "EMAIL"
  domain = "mail.example.com"
}
