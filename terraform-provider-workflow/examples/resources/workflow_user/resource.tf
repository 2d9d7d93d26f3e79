# The API has no update for users: a new email, name or job title
# replaces the user, and destroy deactivates it.
resource "workflow_user" "ada" {
  email        = "ada@example.com"
  first_name   = "Ada"
  last_name    = "Lovelace"
  job_title    = "Engineer"
  never_notify = true
}
