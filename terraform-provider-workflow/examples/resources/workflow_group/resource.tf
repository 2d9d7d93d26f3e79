resource "workflow_user" "ada" {
  email      = "ada@example.com"
  first_name = "Ada"
  last_name  = "Lovelace"
}

resource "workflow_group" "engineering" {
  name        = "Engineering"
  assignable  = true
  mentionable = true
  watchable   = false
  member_ids  = [workflow_user.ada.id] # exactly these members; left out, membership is not managed
}

# A dynamic group: its members follow its e-mail domains
# (workflow_group_email_domains).
resource "workflow_group" "everyone" {
  name    = "Everyone"
  dynamic = true
}
