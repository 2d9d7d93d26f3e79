variable "category_id" {
  type = string
}

variable "source_id" {
  type = string
}

resource "workflow_table" "regions" {
  name        = "Regions"
  handle      = "region"
  source      = var.source_id
  category_id = var.category_id
  fields      = [{ name = "Code", kind = "cloud", column_name = "CODE", column_type = "TEXT" }]
}

resource "workflow_table" "accounts" {
  name        = "Accounts"
  handle      = "acct"
  source      = var.source_id
  category_id = var.category_id
  fields      = [{ name = "Region", kind = "cloud", column_name = "REGION", column_type = "TEXT" }]
}

# The regions joined into the accounts on a pair of fields, both given by
# reference.
resource "workflow_table_join" "region" {
  table_id = workflow_table.accounts.id
  source   = workflow_table.regions.id
  type     = "LEFT"
  on = [{
    left_field_id  = workflow_table.accounts.fields[0].id
    right_field_id = workflow_table.regions.fields[0].id
  }]
}
