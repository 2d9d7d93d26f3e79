# The people beside a workspace's configuration: users, a group and its
# members, a dynamic group's e-mail domains, and the organisation's
# domains. The provider's settings come from WORKFLOW_CLIENT_ID,
# WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and WORKFLOW_AUTH_URL.

terraform {
  required_providers {
    workflow = {
      source = "registry.opentofu.org/seed-a15e58aa/workflow"
    }
  }
}

provider "workflow" {}

# Users have no update and no delete in the API: a new e-mail address or
# name replaces the user, and destroy deactivates it.
resource "workflow_user" "ada" {
  email        = "ada@example.com"
  first_name   = "Ada"
  last_name    = "Lovelace"
  job_title    = "Engineer"
  never_notify = true
}

resource "workflow_user" "grace" {
  email      = "grace@example.com"
  first_name = "Grace"
  last_name  = "Hopper"
}

# A group and exactly these members. Groups have no delete: destroy
# removes the group from the state only.
resource "workflow_group" "engineering" {
  name        = "Engineering"
  assignable  = true
  mentionable = true
  watchable   = false
  member_ids  = [workflow_user.ada.id, workflow_user.grace.id]
}

# A dynamic group: membership follows e-mail domains.
resource "workflow_group" "everyone" {
  name    = "Everyone"
  dynamic = true
}

resource "workflow_group_email_domains" "everyone" {
  group_id = workflow_group.everyone.id
  domains  = ["example.com"]
}

# The organisation's domains: no read and no delete in the API.
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
