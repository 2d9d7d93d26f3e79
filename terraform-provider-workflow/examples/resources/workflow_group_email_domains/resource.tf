resource "workflow_group" "everyone" {
  name    = "Everyone"
  dynamic = true
}

# Every e-mail domain of the dynamic group: one it has that is not listed
# is removed.
resource "workflow_group_email_domains" "everyone" {
  group_id = workflow_group.everyone.id
  domains  = ["example.com"]
}
