# The active users whose address is at example.com (an RSQL filter).
data "workflow_users" "staff" {
  filter = "status==ACTIVE;email=lk=@example.com"
}
