# A table by handle (or by name).
data "workflow_table" "accounts" {
  handle = "acct"
}
