# A user by e-mail, e.g. to add to a group the configuration manages.
data "workflow_user" "ada" {
  email = "ada@example.com"
}
